package io.kcscale.scaler.checks;

import io.kcscale.scaler.model.PipelineSnapshot;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code dead-letters}: what the sink gives up on. A record in the dead-letter topic is out of the index, so
 * records dead-lettered within the window are a warning naming the latest reason, and adding tasks does not
 * bring them back. {@code errors.tolerance=all} without a dead-letter topic drops such records without a trace.
 */
public final class DeadLetterCheck implements Check {

    public static final String ID = "dead-letters";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public Set<CheckInput> needs() {
        return EnumSet.of(CheckInput.CONNECTORS);
    }

    @Override
    public Finding check(PipelineSnapshot snapshot, CheckSamples samples) {
        PipelineSnapshot.DeadLetters dead = snapshot.deadLetters();
        Map<String, String> config = samples.sinkConfig() == null ? Map.of() : samples.sinkConfig();
        boolean tolerant = "all"
                .equalsIgnoreCase(
                        config.getOrDefault("errors.tolerance", "none").trim());
        Evidence e = new Evidence().put("errorsTolerance", tolerant ? "all" : "none");
        if (dead == null) {
            if (tolerant) {
                return finding(
                        Severity.WARNING,
                        "errors.tolerance=all without a dead-letter topic: records the sink cannot"
                                + " convert or transform are dropped without a trace",
                        e,
                        "Set errors.deadletterqueue.topic.name (and"
                                + " errors.deadletterqueue.context.headers.enable=true) so that every skipped record is kept with its reason.");
            }
            return finding(
                    Severity.OK,
                    "no dead-letter topic: a record the sink cannot convert fails its task",
                    e,
                    "Nothing to do; a dead-letter topic keeps one bad record from stopping the sink.");
        }
        e.put("topic", dead.topic())
                .ratio("appendPerSecond", dead.appendPerSecond())
                .put("total", dead.total())
                .put("latestReason", dead.latestReason());
        if (dead.appending()) {
            return finding(
                    Severity.WARNING,
                    String.format(
                            Locale.ROOT,
                            "records are dead-lettered to %s (%.2f/s over the window)%s",
                            dead.topic(),
                            dead.appendPerSecond(),
                            dead.latestReason() == null ? "" : ": " + dead.latestReason()),
                    e,
                    "These records are not in the index and more tasks will not bring them back: read the records' "
                            + "__connect.errors.* headers in " + dead.topic()
                            + ", fix what they name, then replay them.");
        }
        if (dead.total() == null) {
            return finding(
                    Severity.INFO,
                    "dead-letter topic " + dead.topic() + " not read (Connect creates it when a task starts)",
                    e,
                    "Check again once the sink's tasks run.");
        }
        return finding(
                Severity.OK,
                "nothing dead-lettered within the window (" + dead.topic() + " holds " + dead.total() + " records)",
                e,
                "Nothing to do.");
    }

    private static Finding finding(Severity severity, String title, Evidence evidence, String advice) {
        return new Finding(ID, severity, title, evidence.map(), advice);
    }
}
