package io.kcscale.scaler.model;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * The samples of one connector over a sliding window of time; the newest sample sets "now". Beside the window it
 * keeps the connector's end offsets and its group's commits over a longer span (the lag's age, and a task that commits
 * once a minute, reach back beyond the window) and a point per sample for the page's charts, all bounded.
 */
public final class SampleWindow {

    private final long windowMillis;
    private final Deque<PipelineSample> samples = new ArrayDeque<>();
    private final EndOffsetHistory endOffsets = new EndOffsetHistory();
    private final CommitHistory commits = new CommitHistory();
    private final SnapshotHistory history = new SnapshotHistory();
    /** Derived once per new sample: a scrape and every API request read all connectors' snapshots between two rounds. */
    private PipelineSnapshot derived;

    public SampleWindow(long windowMillis) {
        if (windowMillis <= 0) {
            throw new IllegalArgumentException("the window must be positive, got " + windowMillis + " ms");
        }
        this.windowMillis = windowMillis;
    }

    public synchronized void add(PipelineSample reading) {
        PipelineSample sample = reading.sharingPartitionsWith(samples.peekLast());
        samples.addLast(sample);
        while (samples.peekFirst().atMillis() < sample.atMillis() - windowMillis) {
            samples.removeFirst();
        }
        endOffsets.add(sample.atMillis(), sample.endOffsets());
        commits.add(sample.atMillis(), sample.endOffsets(), sample.committedOffsets(), sample.assignment());
        derived = SnapshotDerivation.derive(new ArrayList<>(samples), windowMillis / 1000.0, endOffsets, commits);
        history.add(SnapshotHistory.Point.of(derived));
    }

    public synchronized Optional<PipelineSnapshot> snapshot() {
        return Optional.ofNullable(derived);
    }

    /** The samples in the window, oldest first. */
    public synchronized List<PipelineSample> samples() {
        return List.copyOf(samples);
    }

    /** A point per sample over the last 10 minutes, oldest first. */
    public synchronized List<SnapshotHistory.Point> history() {
        return history.points();
    }
}
