package io.kcscale.scaler.autoscale.rules;

import io.kcscale.scaler.autoscale.AutoscalePolicy;
import io.kcscale.scaler.autoscale.Decision;
import io.kcscale.scaler.autoscale.DecisionInputs;
import io.kcscale.scaler.autoscale.Observation;
import io.kcscale.scaler.autoscale.PolicyMemory;
import io.kcscale.scaler.autoscale.ScalingRule;

/**
 * {@code responsive}: Responsive's Kafka Streams autoscaling policy, with the two diagnosers of its documented example
 * policy (responsive-docs, {@code docs/control-plane/configure-policies.mdx} and {@code policies.mdx}, 2024-11; the
 * policy's schema in responsive-pub kafka-client-0.45.0-alpha, {@code operator/.../crd/kafkastreams/}). Responsive's
 * controller runs in its cloud and is not public: what the documents leave open is said below.
 * <ul>
 *   <li>{@code EXPECTED_LATENCY} with the {@code RATE_BASED} scale-up strategy (listed first, so it takes precedence):
 *       the expected latency is how long the record just appended waits, the lag ÷ the processing rate; above
 *       {@code maxExpectedLatencySeconds} (the policy's target) it scales to the replicas that meet the append rate
 *       and bring the expected latency back under the target within {@code scaleDownBufferSeconds} (undocumented
 *       default: the policy's {@code drainSeconds}). The rate R needed is the larger of the append rate A and
 *       (lag + A × buffer) ÷ (target + buffer); replicas = ceil(R ÷ one replica's processing rate).</li>
 *   <li>{@code THREAD_SATURATION} with the example's threshold 0.65: when the threads are blocked (idle) more than
 *       that share of the time, it removes one replica. Blocked time here is 1 − the busy fraction; unknown, no
 *       scale-down.</li>
 * </ul>
 * Cooldowns ({@code stateTransitionCooldownSeconds}, {@code rebalanceCooldownSeconds}) have undocumented defaults: the
 * policy's cooldown stands in for both. One replica's rate is the operator's measured per-task rate when given, else
 * what the running tasks consume each.
 */
public final class ResponsiveRule implements ScalingRule {

    public static final String NAME = "responsive";
    static final double THREAD_SATURATION_THRESHOLD = 0.65;

    private final double maxExpectedLatencySeconds;
    private final double scaleDownBufferSeconds;
    private final Double perReplicaRate;
    private final TaskBounds bounds;
    private final AutoscalePolicy policy;
    private final long intervalMillis;

    /** @param perReplicaRate one replica's rate as the operator measured it, or null to read it off the tasks */
    ResponsiveRule(AutoscalePolicy validated, Double perReplicaRate, long intervalMillis) {
        this.policy = validated;
        this.maxExpectedLatencySeconds = validated.targetLatencySeconds() != null
                ? validated.targetLatencySeconds()
                : validated.targetLagSeconds();
        this.scaleDownBufferSeconds = validated.drainSeconds();
        this.perReplicaRate = perReplicaRate;
        this.bounds = TaskBounds.of(validated);
        this.intervalMillis = intervalMillis;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public long evaluationIntervalMillis() {
        return intervalMillis;
    }

    /** Seconds the record just appended waits: the lag at the processing rate; infinite when nothing is processed. */
    static double expectedLatencySeconds(long lag, double processingRate) {
        if (lag == 0) {
            return 0;
        }
        return processingRate > 0 ? lag / processingRate : Double.POSITIVE_INFINITY;
    }

    /** The RATE_BASED strategy's rate: the append rate, and what drains back under the target within the buffer. */
    static double rateNeeded(long lag, double appendRate, double targetSeconds, double bufferSeconds) {
        return Math.max(appendRate, (lag + appendRate * bufferSeconds) / (targetSeconds + bufferSeconds));
    }

    @Override
    public Decision decide(Observation o, PolicyMemory m) {
        DecisionInputs.Builder in = new DecisionInputs.Builder();
        double expected = expectedLatencySeconds(o.lag(), o.sinkRate());
        in.expectedLatencySeconds(expected);
        in.maxExpectedLatencySeconds(maxExpectedLatencySeconds);
        double cooldown = policy.cooldownSeconds(m.lastPauseSeconds());
        if (m.hasActed() && o.atMillis() - m.lastActionAtMillis() < cooldown * 1000) {
            return Verdicts.hold(
                    o,
                    "cooldown",
                    Verdicts.format(
                            "cooling down: %.0f s of %.0f s",
                            (o.atMillis() - m.lastActionAtMillis()) / 1000.0, cooldown),
                    in);
        }
        if (expected > maxExpectedLatencySeconds) {
            double perReplica = perReplicaRate != null
                    ? perReplicaRate
                    : o.tasksRunning() == 0 ? 0 : o.sinkRate() / o.tasksRunning();
            double needed = rateNeeded(o.lag(), o.appendRate(), maxExpectedLatencySeconds, scaleDownBufferSeconds);
            in.rateNeeded(needed);
            in.perReplicaRate(perReplica);
            if (!(perReplica > 0)) {
                return Verdicts.hold(
                        o, "no-rate", "expected latency over the target, and no processing rate to size by", in);
            }
            int desired = bounds.clamp((int) Math.min(Integer.MAX_VALUE, Math.ceil(needed / perReplica)), o);
            in.desiredTasks(desired);
            String why = Verdicts.format(
                    "expected latency %s over %.1f s: %.0f/s needed at %.0f/s per replica -> %d",
                    Double.isFinite(expected) ? Verdicts.format("%.1f s", expected) : "unbounded",
                    maxExpectedLatencySeconds,
                    needed,
                    perReplica,
                    desired);
            if (desired <= o.tasks()) {
                return Verdicts.none(o, "expected-latency", why + ": no more replicas", in);
            }
            return Verdicts.scaleTo(o, desired, "expected-latency", why, in);
        }
        if (o.busyFraction() == null) {
            return Verdicts.none(
                    o,
                    "within",
                    "expected latency within the target; thread saturation unknown (no busy fraction)",
                    in);
        }
        double blocked = 1 - o.busyFraction();
        in.blockedRatio(blocked);
        if (blocked > THREAD_SATURATION_THRESHOLD && o.tasks() > bounds.minTasks()) {
            return Verdicts.scaleTo(
                    o,
                    o.tasks() - 1,
                    "thread-saturation",
                    Verdicts.format(
                            "threads blocked %.0f%% of the time (over %.0f%%): one replica fewer",
                            blocked * 100, THREAD_SATURATION_THRESHOLD * 100),
                    in);
        }
        return Verdicts.none(o, "within", "expected latency within the target", in);
    }
}
