package io.kcscale.scaler.autoscale;

/**
 * Decides a connector's tasks from what it observes. Pure: the caller owns the clock, the systems
 * and the {@link PolicyMemory}; the same rule runs live, in the simulator and in the benchmark.
 */
public interface ScalingRule {

    /** The rule's name in reports, e.g. {@code kcscale} or {@code lag-threshold}. */
    String name();

    /** How often the rule wants to be evaluated. */
    long evaluationIntervalMillis();

    /**
     * @param now    the pipeline now
     * @param memory what this rule learned from earlier evaluations; the rule updates it
     */
    Decision decide(Observation now, PolicyMemory memory);

    /** Called once a scale it decided has been applied (or dropped), with the pause it caused if measured. */
    default void applied(Decision decision, Double pauseSeconds, PolicyMemory memory) {
        memory.recordAction(decision.atMillis(), decision.fromTasks(), decision.toTasks(), pauseSeconds);
    }
}
