package io.kcscale.lab.peers;

import io.kcscale.scaler.autoscale.Decision;
import io.kcscale.scaler.autoscale.Observation;
import io.kcscale.scaler.autoscale.PolicyMemory;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A rate-based rule in the manner of Responsive's expected-latency diagnoser: the expected latency is the
 * time the backlog takes to drain with the capacity running now beyond the arrival rate; above the objective
 * it scales to the count whose spare capacity drains the backlog within the objective. It scales down only
 * when one task fewer still keeps the expected latency within the objective less a buffer, for a whole buffer
 * period.
 */
public final class RateBasedRule extends PeerRule {

    public static final String NAME = "rate-based";
    public static final long POLL_MILLIS = 30_000;
    public static final long SCALE_DOWN_BUFFER_MILLIS = 120_000;
    /** Scale down only while one task fewer would keep the expected latency under this share of the objective. */
    public static final double SCALE_DOWN_HEADROOM = 0.5;
    /** A scale-down sizes the tasks to run at most this share of their rate, so noise does not bring the backlog back. */
    public static final double SCALE_DOWN_UTILIZATION = 0.8;

    public RateBasedRule(double perTaskRate, double targetLatencySeconds, int minTasks, int maxTasks) {
        super(NAME, POLL_MILLIS, perTaskRate, targetLatencySeconds, minTasks, maxTasks);
    }

    /** Seconds the backlog takes to drain at {@code tasks}: infinite when they do not outrun the arrivals. */
    double expectedLatencySeconds(int tasks, Observation o) {
        if (o.lag() == 0) {
            return 0;
        }
        double spare = tasks * perTaskRate - o.appendRate();
        return spare > 0 ? o.lag() / spare : Double.POSITIVE_INFINITY;
    }

    @Override
    public Decision decide(Observation o, PolicyMemory m) {
        double expected = expectedLatencySeconds(o.tasks(), o);
        Map<String, Object> in = new LinkedHashMap<>();
        in.put("expectedLatencySeconds", expected);
        in.put("appendRate", o.appendRate());
        in.put("lag", o.lag());
        if (expected > targetLatencySeconds) {
            m.notIdle();
            int desired = bounds.clamp((o.appendRate() + o.lag() / targetLatencySeconds) / perTaskRate, o);
            if (desired <= o.tasks()) {
                return new Decision(
                        o.atMillis(),
                        Decision.Action.BLOCKED,
                        o.tasks(),
                        o.tasks(),
                        "cap",
                        "expected latency over the objective at the most tasks allowed",
                        in);
            }
            return new Decision(
                    o.atMillis(),
                    Decision.Action.SCALE_UP,
                    o.tasks(),
                    desired,
                    "expected-latency",
                    String.format(
                            Locale.ROOT,
                            "expected latency %s over %.1f s -> %d tasks",
                            seconds(expected),
                            targetLatencySeconds,
                            desired),
                    in);
        }
        int fewer = o.tasks() - 1;
        if (fewer >= bounds.minTasks()
                && expectedLatencySeconds(fewer, o) <= SCALE_DOWN_HEADROOM * targetLatencySeconds
                && o.appendRate() < fewer * perTaskRate) {
            if (m.idleSinceMillis() == Long.MIN_VALUE) {
                m.idleSince(o.atMillis());
            }
            if (o.atMillis() - m.idleSinceMillis() >= SCALE_DOWN_BUFFER_MILLIS) {
                int desired = bounds.clamp(o.appendRate() / (SCALE_DOWN_UTILIZATION * perTaskRate), o);
                desired = Math.min(fewer, Math.max(desired, bounds.minTasks()));
                return new Decision(
                        o.atMillis(),
                        Decision.Action.SCALE_DOWN,
                        o.tasks(),
                        desired,
                        "spare-capacity",
                        String.format(
                                Locale.ROOT,
                                "%.0f/s fits %d tasks at %.0f%% each",
                                o.appendRate(),
                                desired,
                                SCALE_DOWN_UTILIZATION * 100),
                        in);
            }
            return new Decision(
                    o.atMillis(),
                    Decision.Action.HOLD,
                    o.tasks(),
                    o.tasks(),
                    "buffer",
                    "spare capacity; waiting out the scale-down buffer",
                    in);
        }
        m.notIdle();
        return new Decision(
                o.atMillis(),
                Decision.Action.NONE,
                o.tasks(),
                o.tasks(),
                "within",
                "expected latency within the objective",
                in);
    }

    /** The backlog never drains when the tasks do not outrun the arrivals: said in words, not as "Infinity". */
    private static String seconds(double expected) {
        return Double.isInfinite(expected)
                ? "unbounded (arrivals outrun the tasks)"
                : String.format(Locale.ROOT, "%.1f s", expected);
    }
}
