package io.kcscale.scaler.autoscale;

/**
 * What a policy carries between evaluations: the last action, the pause it caused, the per-task
 * capacity it saw while the pipeline was saturated, since when tasks have been mostly idle, and the
 * previous observation.
 * Not persisted: after a restart a policy learns again, and holds until the pipeline is stable.
 */
public final class PolicyMemory {

    private long lastActionAtMillis = Long.MIN_VALUE;
    private Double lastPauseSeconds;
    private int tasksBeforeLastAction;
    private double sinkRateBeforeLastAction = Double.NaN;
    private int tasksAfterLastAction;
    private double perTaskCapacity = Double.NaN;
    private long idleSinceMillis = Long.MIN_VALUE;
    private Observation lastObservation;

    /** A copy to decide on without changing what the policy carries (a recommendation asked between evaluations). */
    public PolicyMemory copy() {
        PolicyMemory c = new PolicyMemory();
        c.lastActionAtMillis = lastActionAtMillis;
        c.lastPauseSeconds = lastPauseSeconds;
        c.tasksBeforeLastAction = tasksBeforeLastAction;
        c.sinkRateBeforeLastAction = sinkRateBeforeLastAction;
        c.tasksAfterLastAction = tasksAfterLastAction;
        c.perTaskCapacity = perTaskCapacity;
        c.idleSinceMillis = idleSinceMillis;
        c.lastObservation = lastObservation;
        return c;
    }

    public void recordAction(long atMillis, int fromTasks, int toTasks, Double pauseSeconds) {
        lastActionAtMillis = atMillis;
        tasksBeforeLastAction = fromTasks;
        tasksAfterLastAction = toTasks;
        sinkRateBeforeLastAction = lastObservation == null ? Double.NaN : lastObservation.sinkRate();
        if (pauseSeconds != null) {
            lastPauseSeconds = pauseSeconds;
        }
        idleSinceMillis = Long.MIN_VALUE;
    }

    /** The latest observation, kept to judge the next action's effect and how fast lag grows. */
    public void observe(Observation o) {
        lastObservation = o;
    }

    /** The observation before the current one, or null. */
    public Observation lastObservation() {
        return lastObservation;
    }

    public boolean hasActed() {
        return lastActionAtMillis != Long.MIN_VALUE;
    }

    public long lastActionAtMillis() {
        return lastActionAtMillis;
    }

    public Double lastPauseSeconds() {
        return lastPauseSeconds;
    }

    public int tasksBeforeLastAction() {
        return tasksBeforeLastAction;
    }

    public int tasksAfterLastAction() {
        return tasksAfterLastAction;
    }

    public double sinkRateBeforeLastAction() {
        return sinkRateBeforeLastAction;
    }

    /** Records/s one task sustained when last seen saturated; NaN until then. */
    public double perTaskCapacity() {
        return perTaskCapacity;
    }

    public void learnCapacity(double perTask) {
        perTaskCapacity = perTask;
    }

    public long idleSinceMillis() {
        return idleSinceMillis;
    }

    public void idleSince(long atMillis) {
        idleSinceMillis = atMillis;
    }

    public void notIdle() {
        idleSinceMillis = Long.MIN_VALUE;
    }
}
