package io.kcscale.scaler.checks;

import io.kcscale.scaler.model.PipelineSnapshot;
import io.kcscale.scaler.model.SnapshotDerivation;
import io.kcscale.scaler.model.WorkerLoss;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * {@code stability}: whether the pipeline is steady enough to scale: committed offsets advancing,
 * no rebalance in the window, every task RUNNING (the snapshot's verdict and reasons). A failed task
 * is critical: more tasks do not fix it, and the restart a scale causes would hide its cause. A worker that does
 * not answer is a warning naming it: Connect reports its tasks RUNNING until it reassigns them.
 */
public final class StabilityCheck implements Check {

    public static final String ID = "stability";
    /** A trace summary stops at this length; the full trace is in Connect's status. */
    static final int SUMMARY_CHARS = 300;

    @Override
    public String id() {
        return ID;
    }

    @Override
    public Set<CheckInput> needs() {
        return EnumSet.of(CheckInput.WINDOW, CheckInput.CONNECTORS);
    }

    @Override
    public Finding check(PipelineSnapshot snapshot, CheckSamples samples) {
        List<Integer> failed = new ArrayList<>();
        List<Integer> advancing = new ArrayList<>();
        for (PipelineSnapshot.Task t : snapshot.tasks()) {
            if ("FAILED".equals(t.state())) {
                failed.add(t.id());
            }
            if (t.recordsPerSecond() != null && t.recordsPerSecond() > 0) {
                advancing.add(t.id());
            }
        }
        boolean connectorFailed = "FAILED".equals(samples.connectorState());
        Evidence e = new Evidence()
                .put("tasks", snapshot.tasks().size())
                .put(
                        "tasksRunning",
                        snapshot.tasks().stream()
                                .filter(t -> "RUNNING".equals(t.state()))
                                .count())
                .put("failedTasks", failed)
                .put("tasksAdvancing", advancing)
                .ratio("sinkPerSecond", snapshot.rates().sinkPerSecond())
                .put("lag", snapshot.lag() == null ? null : snapshot.lag().total())
                .put("rebalancedInWindow", SnapshotDerivation.rebalancedWithin(samples.window()))
                .put("unreachableWorkers", snapshot.unreachableWorkers())
                .put("rebalanceDelaySeconds", samples.rebalanceDelay().toSeconds())
                .put("reasons", snapshot.reasons());
        if (connectorFailed || !failed.isEmpty()) {
            List<String> summaries = new ArrayList<>();
            failed.forEach(id -> summaries.add(
                    "task " + id + ": " + summary(samples.taskTraces().get(id))));
            List<String> what = new ArrayList<>();
            if (connectorFailed) {
                what.add("the connector");
            }
            if (!failed.isEmpty()) {
                what.add(failed.size() == 1 ? "task " + failed.get(0) : "tasks " + failed);
            }
            return finding(
                    Severity.CRITICAL,
                    String.join(" and ", what) + " FAILED: more tasks would not help",
                    e,
                    "Fix the failure first" + (summaries.isEmpty() ? "" : " (" + String.join("; ", summaries) + ")")
                            + ", then restart: POST /connectors/" + snapshot.name()
                            + "/restart?includeTasks=true&onlyFailed=true."
                            + " Scaling restarts the tasks and hides the cause.");
        }
        WorkerLoss loss = WorkerLoss.of(snapshot);
        if (!loss.none()) {
            return finding(
                    Severity.WARNING,
                    "not steady: " + loss.describe(),
                    e,
                    loss.reassignment(samples.rebalanceDelay())
                            + ". Do not scale until then: the tasks on it are not running, whatever Connect reports, and a scale's"
                            + " rebalance would only add to the wait. Starting the worker again gets them back sooner.");
        }
        if (samples.window().size() < 2) {
            return finding(
                    Severity.INFO,
                    "warming up: the window holds too few samples to see offsets advance",
                    e,
                    "Run the check again in a few seconds.");
        }
        List<String> problems = new ArrayList<>(snapshot.reasons());
        Long lag = snapshot.lag() == null ? null : snapshot.lag().total();
        if (lag != null && lag > 0 && Double.valueOf(0).equals(snapshot.rates().sinkPerSecond())) {
            problems.add("the sink group committed nothing over the window while " + lag + " records wait");
        }
        if (problems.isEmpty()) {
            return finding(
                    Severity.OK,
                    "steady: offsets advance wherever there is lag, no rebalance in the window, all "
                            + snapshot.tasks().size() + " tasks RUNNING",
                    e,
                    "Nothing to do.");
        }
        return finding(
                Severity.WARNING,
                "not steady: " + String.join("; ", problems),
                e,
                "Scale once the pipeline "
                        + "is steady: wait out a rebalance (a full window without one), and find why stalled partitions or tasks do not "
                        + "advance before adding tasks.");
    }

    /** The exception line of a trace and its root cause, when there is one. */
    static String summary(String trace) {
        if (trace == null || trace.isBlank()) {
            return "no trace reported";
        }
        List<String> lines =
                trace.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
        String summary = lines.get(0);
        for (int i = lines.size() - 1; i > 0; i--) {
            if (lines.get(i).startsWith("Caused by: ")) {
                summary += " ← " + lines.get(i).substring("Caused by: ".length());
                break;
            }
        }
        return summary.length() <= SUMMARY_CHARS ? summary : summary.substring(0, SUMMARY_CHARS - 1) + "…";
    }

    private static Finding finding(Severity severity, String title, Evidence evidence, String advice) {
        return new Finding(ID, severity, title, evidence.map(), advice);
    }
}
