package io.kcscale.scaler.autoscale;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a policy carries between evaluations: the last action, the pause it caused, the per-task
 * capacity it saw while the pipeline was saturated, since when tasks have been mostly idle, the
 * previous observation, and named series of timed values a rule keeps (an HPA's recent recommendations,
 * a rate history for a percentile, a metric window), each bounded in age and count.
 * Not persisted: after a restart a policy learns again, and holds until the pipeline is stable.
 */
public final class PolicyMemory {

    /** The most values one series keeps: a day of 15-second samples; older ones are dropped first. */
    public static final int MAX_SAMPLES_PER_SERIES = 6_000;
    /** The most series one memory keeps: a rule names a handful; more is a bug, refused rather than grown. */
    public static final int MAX_SERIES = 32;

    /** One remembered value and when it was taken. */
    public record Sample(long atMillis, double value) {}

    private final Map<String, Deque<Sample>> series = new TreeMap<>();

    private long lastActionAtMillis = Long.MIN_VALUE;
    private Double lastPauseSeconds;
    private int tasksBeforeLastAction;
    private double sinkRateBeforeLastAction = Double.NaN;
    private double capacityAtLastAction = Double.NaN;
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
        c.capacityAtLastAction = capacityAtLastAction;
        c.tasksAfterLastAction = tasksAfterLastAction;
        c.perTaskCapacity = perTaskCapacity;
        c.idleSinceMillis = idleSinceMillis;
        c.lastObservation = lastObservation;
        series.forEach((name, samples) -> c.series.put(name, new ArrayDeque<>(samples)));
        return c;
    }

    /**
     * Adds {@code value} at {@code atMillis} to the series {@code name}, and drops its samples older than
     * {@code keepMillis} before it (and the oldest beyond {@link #MAX_SAMPLES_PER_SERIES}).
     *
     * @throws IllegalStateException a rule asked for more than {@link #MAX_SERIES} series
     */
    public void remember(String name, long atMillis, double value, long keepMillis) {
        Deque<Sample> samples = series.get(name);
        if (samples == null) {
            if (series.size() >= MAX_SERIES) {
                throw new IllegalStateException(
                        "a policy's memory keeps at most " + MAX_SERIES + " series; " + name + " would be one more");
            }
            samples = new ArrayDeque<>();
            series.put(name, samples);
        }
        samples.addLast(new Sample(atMillis, value));
        while (samples.size() > MAX_SAMPLES_PER_SERIES || samples.peekFirst().atMillis() < atMillis - keepMillis) {
            samples.removeFirst();
        }
    }

    /** The series {@code name}, oldest first; empty when nothing was remembered under it. */
    public List<Sample> recall(String name) {
        Deque<Sample> samples = series.get(name);
        return samples == null ? List.of() : List.copyOf(samples);
    }

    /** The newest sample of the series {@code name}, or null. */
    public Sample latest(String name) {
        Deque<Sample> samples = series.get(name);
        return samples == null ? null : samples.peekLast();
    }

    /** Drops the series {@code name} (a rule starting its window again). */
    public void forget(String name) {
        series.remove(name);
    }

    public void recordAction(long atMillis, int fromTasks, int toTasks, Double pauseSeconds) {
        lastActionAtMillis = atMillis;
        tasksBeforeLastAction = fromTasks;
        tasksAfterLastAction = toTasks;
        sinkRateBeforeLastAction = lastObservation == null ? Double.NaN : lastObservation.sinkRate();
        capacityAtLastAction = perTaskCapacity;
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

    /** The per-task capacity the last action was sized by; NaN when none was measured then. */
    public double capacityAtLastAction() {
        return capacityAtLastAction;
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
