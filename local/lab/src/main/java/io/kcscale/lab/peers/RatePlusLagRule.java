package io.kcscale.lab.peers;

import io.kcscale.scaler.autoscale.Decision;
import io.kcscale.scaler.autoscale.Observation;
import io.kcscale.scaler.autoscale.PolicyMemory;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A rule in the manner of Brandwatch's kafka-pod-autoscaler: the capacity needed is the topic's p99 append
 * rate over the last window plus the backlog drained within the latency objective (lag ÷ objective), divided
 * by one task's rate; the count is rounded up to one that splits the partitions evenly (for 20 partitions:
 * 1, 2, 4, 5, 10, 20), and after any change the rule cools off before it changes again.
 */
public final class RatePlusLagRule extends PeerRule {

    public static final String NAME = "rate-plus-lag";
    public static final long POLL_MILLIS = 30_000;
    public static final long RATE_WINDOW_MILLIS = 300_000;
    public static final long COOL_OFF_MILLIS = 300_000;

    /** (time, append rate) over the last window; at most one entry per poll. */
    private final Deque<double[]> rates = new ArrayDeque<>();

    public RatePlusLagRule(double perTaskRate, double targetLatencySeconds, int minTasks, int maxTasks) {
        super(NAME, POLL_MILLIS, perTaskRate, targetLatencySeconds, minTasks, maxTasks);
    }

    @Override
    public Decision decide(Observation o, PolicyMemory m) {
        rates.addLast(new double[] {o.atMillis(), o.appendRate()});
        while (rates.peekFirst()[0] < o.atMillis() - RATE_WINDOW_MILLIS) {
            rates.removeFirst();
        }
        double p99 = p99(rates.stream().mapToDouble(r -> r[1]).toArray());
        double needed = (p99 + o.lag() / targetLatencySeconds) / perTaskRate;
        int desired = evenSplit(bounds.clamp(needed, o), o.tasksWithPartitionsAtMost(), bounds.cap(o));
        Map<String, Object> in = new LinkedHashMap<>();
        in.put("p99AppendRate", p99);
        in.put("lag", o.lag());
        in.put("desiredTasks", desired);
        if (desired == o.tasks()) {
            return new Decision(
                    o.atMillis(), Decision.Action.NONE, o.tasks(), o.tasks(), "steady", "capacity matches", in);
        }
        if (m.hasActed() && o.atMillis() - m.lastActionAtMillis() < COOL_OFF_MILLIS) {
            return new Decision(
                    o.atMillis(),
                    Decision.Action.HOLD,
                    o.tasks(),
                    o.tasks(),
                    "cool-off",
                    "wants " + desired + " tasks; cooling off after the last change",
                    in);
        }
        return new Decision(
                o.atMillis(),
                desired > o.tasks() ? Decision.Action.SCALE_UP : Decision.Action.SCALE_DOWN,
                o.tasks(),
                desired,
                "rate-plus-lag",
                String.format(
                        Locale.ROOT,
                        "(p99 %.0f/s + lag %d / %.1f s) / %.0f per task -> %d tasks",
                        p99,
                        o.lag(),
                        targetLatencySeconds,
                        perTaskRate,
                        desired),
                in);
    }

    /** The nearest-rank 99th percentile. */
    static double p99(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[(int) Math.ceil(0.99 * sorted.length) - 1];
    }

    /** The smallest count at or above {@code tasks} that divides the partitions (or the cap when none does). */
    static int evenSplit(int tasks, int partitions, int cap) {
        for (int n = tasks; n <= cap; n++) {
            if (partitions > 0 && partitions % n == 0) {
                return n;
            }
        }
        return Math.min(tasks, cap);
    }
}
