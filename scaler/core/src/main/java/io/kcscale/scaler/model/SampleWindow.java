package io.kcscale.scaler.model;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * The samples of one connector over a sliding window of time; the newest sample sets "now". Beside the window it
 * keeps the connector's end offsets over a longer span (the lag's age reaches back beyond the window) and a point
 * per sample for the page's charts, both bounded.
 */
public final class SampleWindow {

    private final long windowMillis;
    private final Deque<PipelineSample> samples = new ArrayDeque<>();
    private final EndOffsetHistory endOffsets = new EndOffsetHistory();
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
        derived = SnapshotDerivation.derive(new ArrayList<>(samples), windowMillis / 1000.0, endOffsets);
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

    /**
     * Forgets every sample, e.g. after this scaler changed the connector and old rates no longer hold. The end offsets
     * and the history stay: they do not depend on the tasks.
     */
    public synchronized void clear() {
        derived = null;
        samples.clear();
    }
}
