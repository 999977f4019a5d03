package io.kcscale.scaler.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code kcscale autoscale NAME ...}: puts a sink connector under an autoscale policy, or stops it. */
@Command(
        name = "autoscale",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Autoscale a sink connector: one step by ratio when lag exceeds the target, waiting out",
            "rebalances and cooldowns; scale down after tasks were mostly idle for a cooldown. `--stop` ends it.",
            "`./kcscale decisions NAME` shows what it decided and why."
        })
public final class AutoscaleCommand implements Callable<Integer> {

    @Mixin
    ConnectorVerbOptions connector = new ConnectorVerbOptions();

    @Option(
            names = "--max-tasks",
            paramLabel = "N",
            description = "The most tasks it may set (required unless --stop).")
    Integer maxTasks;

    @Option(names = "--min-tasks", paramLabel = "N", description = "The fewest tasks (default: 1).")
    Integer minTasks;

    @Option(names = "--target-latency", paramLabel = "DURATION", description = "Little's-law latency target, e.g. 5s.")
    String targetLatency;

    @Option(names = "--target-lag", paramLabel = "N", description = "Lag target in records (instead of a latency).")
    Long targetLag;

    @Option(
            names = "--target-lag-seconds",
            paramLabel = "DURATION",
            description =
                    "Age target: the oldest unconsumed record may wait this long, e.g. 30s (alone or beside a records target).")
    String targetLagSeconds;

    @Option(
            names = "--cooldown",
            paramLabel = "DURATION",
            description = "Least time between actions (default: 2x the last rebalance pause, at least 30s).")
    String cooldown;

    @Option(
            names = "--scale-down-idle-fraction",
            paramLabel = "F",
            description = "Scale down when tasks idle more than this (default: 0.75).")
    Double idleFraction;

    @Option(
            names = "--rule",
            paramLabel = "NAME",
            description = "The rule that decides: kcscale (default), or a peer's as it ships: keda-hpa, druid-cost,"
                    + " kafka-pod-autoscaler, responsive, flink.")
    String rule;

    @Option(names = "--dry-run", description = "Decide and report, change nothing.")
    boolean dryRun;

    @Option(names = "--stop", description = "Stop autoscaling this connector.")
    boolean stop;

    @Override
    public Integer call() {
        String path = connector.path("/autoscale");
        try {
            connector.print(
                    stop ? connector.client().delete(path) : connector.client().put(path, policy()), this::summary);
            return 0;
        } catch (IllegalArgumentException e) {
            return connector.invalid(e.getMessage());
        } catch (ScalerApiClient.Failure e) {
            return connector.failed(e);
        }
    }

    private String summary(JsonNode answer) {
        String name = connector.name;
        if (stop) {
            return name + ": autoscaling stopped; its tasks stay as they are" + System.lineSeparator();
        }
        JsonNode p = answer.path("policy");
        List<String> targets = new ArrayList<>();
        if (p.has("targetLag")) {
            targets.add("lag " + p.path("targetLag").asText());
        }
        if (p.has("targetLatencySeconds")) {
            targets.add("latency " + p.path("targetLatencySeconds").asText() + " s");
        }
        if (p.has("targetLagSeconds")) {
            targets.add("lag age " + p.path("targetLagSeconds").asText() + " s");
        }
        return String.format(
                        Locale.ROOT,
                        "%s: autoscaling between %s and %s tasks, target %s%s%n",
                        name,
                        p.path("minTasks").asText(),
                        p.path("maxTasks").asText(),
                        String.join(" or ", targets),
                        p.path("dryRun").asBoolean() ? " (dry run: decisions only)" : "")
                + "`./kcscale decisions " + name + "` shows what it decides and why" + System.lineSeparator();
    }

    private Map<String, Object> policy() {
        if (maxTasks == null) {
            throw new IllegalArgumentException("--max-tasks is required: the most tasks the autoscaler may set");
        }
        if (targetLatency != null && targetLag != null) {
            throw new IllegalArgumentException("give at most one of --target-latency and --target-lag");
        }
        if (targetLatency == null && targetLag == null && targetLagSeconds == null) {
            throw new IllegalArgumentException("give --target-latency, --target-lag or --target-lag-seconds");
        }
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("maxTasks", maxTasks);
        p.put("minTasks", minTasks);
        p.put(
                "targetLatencySeconds",
                targetLatency == null ? null : DurationFlag.seconds("--target-latency", targetLatency));
        p.put("targetLag", targetLag);
        p.put(
                "targetLagSeconds",
                targetLagSeconds == null ? null : DurationFlag.seconds("--target-lag-seconds", targetLagSeconds));
        p.put("cooldownSeconds", cooldown == null ? null : DurationFlag.seconds("--cooldown", cooldown));
        p.put("scaleDownIdleFraction", idleFraction);
        p.put("dryRun", dryRun);
        p.put("rule", rule);
        p.values().removeIf(v -> v == null);
        return p;
    }
}
