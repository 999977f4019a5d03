package io.kcscale.scaler.service;

import io.kcscale.scaler.checks.Check;
import io.kcscale.scaler.checks.CheckInput;
import io.kcscale.scaler.checks.CheckReport;
import io.kcscale.scaler.checks.Checks;
import io.kcscale.scaler.checks.Finding;
import io.kcscale.scaler.checks.Severity;
import io.kcscale.scaler.checks.keys.SampleBudget;
import io.kcscale.scaler.model.PipelineSnapshot;
import io.kcscale.scaler.observe.CheckObserver;
import io.kcscale.scaler.observe.PipelineWatcher;
import io.kcscale.scaler.ports.PreScaleChecks;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Runs every scaling check on a connector: observes what they need, then judges. For the API, for
 * a scale (with the task count it asks for), and for the autoscaler, which asks often and gets a
 * report at most {@code BLOCKING_MAX_AGE_MILLIS} old so that it does not sample the topic each round.
 */
public final class ScalingChecks implements PreScaleChecks {

    static final long BLOCKING_MAX_AGE_MILLIS = 60_000;

    private final List<Check> checks;
    private final Set<CheckInput> needs;
    private final CheckObserver observer;
    private final PipelineWatcher watcher;
    private final LongSupplier clock;
    private final Map<String, Dated> blocking = new ConcurrentHashMap<>();

    private record Dated(long atMillis, List<String> findings) {}

    /** @param checks the checks a report runs, in its order ({@link Checks#ALL}) */
    public ScalingChecks(List<Check> checks, CheckObserver observer, PipelineWatcher watcher, LongSupplier clock) {
        this.checks = List.copyOf(checks);
        this.needs = Checks.needs(checks);
        this.observer = observer;
        this.watcher = watcher;
        this.clock = clock;
    }

    /** The report for the connector's current tasks.max. */
    public CheckReport run(PipelineSnapshot snapshot, SampleBudget budget) {
        return run(snapshot, currentTasks(snapshot), budget);
    }

    public CheckReport run(PipelineSnapshot snapshot, int tasksWanted, SampleBudget budget) {
        return Checks.run(checks, snapshot, observer.observe(snapshot, tasksWanted, budget, needs));
    }

    @Override
    public List<Finding> findings(PipelineSnapshot snapshot, int tasksWanted) {
        return run(snapshot, tasksWanted, SampleBudget.DEFAULT).findings();
    }

    /**
     * The critical findings against one more task than now ("id: title"): what says more tasks
     * cannot help. Empty while the connector is not observed.
     */
    public List<String> blockingFindings(String connector) {
        long now = clock.getAsLong();
        Dated known = blocking.get(connector);
        if (known != null && now - known.atMillis() < BLOCKING_MAX_AGE_MILLIS) {
            return known.findings();
        }
        Optional<PipelineSnapshot> snapshot = watcher.snapshot(connector);
        if (snapshot.isEmpty()) {
            return List.of();
        }
        List<String> findings =
                run(snapshot.get(), currentTasks(snapshot.get()) + 1, SampleBudget.DEFAULT).findings().stream()
                        .filter(f -> f.severity() == Severity.CRITICAL)
                        .map(f -> f.id() + ": " + f.title())
                        .toList();
        blocking.put(connector, new Dated(now, findings));
        return findings;
    }

    private static int currentTasks(PipelineSnapshot snapshot) {
        return snapshot.tasksMax() != null
                ? snapshot.tasksMax()
                : Math.max(1, snapshot.tasks().size());
    }
}
