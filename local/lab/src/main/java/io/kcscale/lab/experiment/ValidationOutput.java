package io.kcscale.lab.experiment;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Writes {@code experiment validate}'s files into its run folder, and says what it found. */
public final class ValidationOutput {

    public static final String REPORT = "report.md";
    public static final String JSON_FILE = "validation.json";
    public static final String CONFIG = "config.json";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ValidationOutput() {}

    /** @return the files written, by name */
    public static List<String> write(RunDirectory dir, Validation.Result result, String command, boolean quick) {
        Validation.Plan plan = result.plan();
        dir.write(SweepOutput.RESULTS, ResultsCsv.write(result.sweep().rows()));
        dir.write(
                REPORT,
                "# Held-out validation of `predict tasks`\n\n`" + command
                        + "`; full configuration in `config.json`.\n\n" + table(result) + "\n"
                        + SweepReport.markdown(result.sweep(), command).replaceAll("(?m)^#", "##"));
        dir.write(JSON_FILE, json(result) + "\n");
        dir.writeJson(
                CONFIG,
                new RunConfig("validate", command, plan.seed(), quick, plan.timing())
                        .put("fit", plan.fit())
                        .put("check", plan.check())
                        .put("partitions", plan.partitions())
                        .put("sinkMode", "index")
                        .put("sinkLatencyMs", plan.sinkLatencyMs())
                        .put("sinkSerialMs", plan.sinkSerialMs())
                        .put("repeat", plan.repeats())
                        .put("goalPercent", HeldOut.GOAL_PERCENT)
                        .put("bound", RunConfig.bound(LagBound.DEFAULT))
                        .put("connectors", result.sweep().connectorConfigs())
                        .values());
        return List.of(SweepOutput.RESULTS, REPORT, JSON_FILE, CONFIG);
    }

    /** Every held-out point (prediction, measurement, error), the model, and the decision. */
    public static String table(Validation.Result result) {
        HeldOut.Report r = result.report();
        StringBuilder t = new StringBuilder();
        t.append(String.format(
                Locale.ROOT,
                "Every sink request waited %d ms, then held one shared lock %d ms. Fitted on %s: %s.%n%n",
                result.plan().sinkLatencyMs(),
                result.plan().sinkSerialMs(),
                r.fit().stream()
                        .map(m -> String.format(Locale.ROOT, "%d task(s) %.0f records/s", m.tasks(), m.sustainedRate()))
                        .reduce((a, b) -> a + ", " + b)
                        .orElse(""),
                model(r)));
        t.append("| held-out tasks | predicted (records/s) | measured (records/s) | error |\n|---:|---:|---:|---:|\n");
        for (HeldOut.Point p : r.points()) {
            t.append(
                    p.predicted() == null
                            ? String.format(Locale.ROOT, "| %d | — | %.0f | — |%n", p.tasks(), p.measured())
                            : String.format(
                                    Locale.ROOT,
                                    "| %d | %.0f | %.0f | %+.1f%% |%n",
                                    p.tasks(),
                                    p.predicted(),
                                    p.measured(),
                                    p.errorPercent()));
        }
        if (r.refusal() != null) {
            return t.append(String.format(
                            Locale.ROOT,
                            "%nNo prediction: predict tasks refused the fit points, so the %.0f%% goal is"
                                    + " not met.%n",
                            HeldOut.GOAL_PERCENT))
                    .toString();
        }
        t.append(String.format(
                Locale.ROOT,
                "%nWorst |error| %.1f%%: %s the %.0f%% goal.%n",
                r.worstErrorPercent(),
                r.goalMet() ? "within" : "outside",
                HeldOut.GOAL_PERCENT));
        t.append(decision(r.decision())).append('\n');
        result.intervalChecks()
                .forEach(
                        c -> t.append("\nInterval check: ").append(c.describe()).append('\n'));
        return t.toString();
    }

    private static String model(HeldOut.Report r) {
        if (r.refusal() != null) {
            return "refused: " + r.refusal();
        }
        if (r.usl() == null) {
            return String.format(Locale.ROOT, "linear, %.1f records/s per task", r.perTaskRate());
        }
        return String.format(
                Locale.ROOT,
                "USL, λ %.1f records/s, σ %.4f, κ %.6f, R² %.4f",
                r.usl().lambda(),
                r.usl().sigma(),
                r.usl().kappa(),
                r.usl().rSquared());
    }

    private static String decision(HeldOut.Decision d) {
        String asked = String.format(Locale.ROOT, "Decision: tasks for %.0f records/s → ", d.targetRate());
        if (d.recommendedTasks() == null) {
            return asked + "no task count reaches it.";
        }
        String interval = d.interval() == null
                ? ""
                : String.format(
                        Locale.ROOT,
                        " (prediction interval of its rate %.0f–%s)",
                        d.interval().low(),
                        d.interval().high() == null
                                ? "open"
                                : String.format(
                                        Locale.ROOT, "%.0f", d.interval().high()));
        if (d.held() == null) {
            return asked + d.recommendedTasks() + " tasks" + interval
                    + "; that count was not a held-out count, so the decision is not judged.";
        }
        return asked + d.recommendedTasks() + " tasks" + interval
                + String.format(
                        Locale.ROOT,
                        "; they sustained %.0f records/s: %s.",
                        d.measuredRate(),
                        d.held() ? "held" : "did NOT hold");
    }

    /** What {@code --json} prints and {@code validation.json} holds. */
    public static String json(Validation.Result result) {
        HeldOut.Report r = result.report();
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("sinkLatencyMs", result.plan().sinkLatencyMs());
        root.put("sinkSerialMs", result.plan().sinkSerialMs());
        root.put("fit", r.fit());
        root.put("model", r.model());
        root.put("perTaskRate", r.perTaskRate());
        root.put("usl", r.usl());
        root.put("points", r.points());
        root.put("worstErrorPercent", r.worstErrorPercent());
        root.put("goalPercent", HeldOut.GOAL_PERCENT);
        root.put("goalMet", r.goalMet());
        root.put("decision", r.decision());
        root.put("intervalChecks", result.intervalChecks());
        root.put("assumptions", r.assumptions());
        root.put("refusal", r.refusal());
        root.put(
                "loadAverage",
                result.sweep().rows().isEmpty()
                        ? null
                        : result.sweep()
                                .rows()
                                .get(result.sweep().rows().size() - 1)
                                .loadAverage());
        // kept in the repository beside the docs that cite it: when and where it was measured travel with the figures
        root.put("recordedAt", result.recordedAt().toString());
        root.put("machine", result.machine());
        try {
            return JSON.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the validation as JSON", e);
        }
    }
}
