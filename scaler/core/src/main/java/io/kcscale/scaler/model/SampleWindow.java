package io.kcscale.scaler.model;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/** The samples of one connector over a sliding window of time; the newest sample sets "now". */
public final class SampleWindow {

    private final long windowMillis;
    private final Deque<PipelineSample> samples = new ArrayDeque<>();
    /** Derived once per new sample: a scrape and every API request read all connectors' snapshots between two rounds. */
    private PipelineSnapshot derived;

    public SampleWindow(long windowMillis) {
        if (windowMillis <= 0) {
            throw new IllegalArgumentException("the window must be positive, got " + windowMillis + " ms");
        }
        this.windowMillis = windowMillis;
    }

    public synchronized void add(PipelineSample sample) {
        derived = null;
        samples.addLast(sample);
        while (samples.peekFirst().atMillis() < sample.atMillis() - windowMillis) {
            samples.removeFirst();
        }
    }

    public synchronized Optional<PipelineSnapshot> snapshot() {
        if (samples.isEmpty()) {
            return Optional.empty();
        }
        if (derived == null) {
            derived = SnapshotDerivation.derive(new ArrayList<>(samples), windowMillis / 1000.0);
        }
        return Optional.of(derived);
    }

    /** The samples in the window, oldest first. */
    public synchronized List<PipelineSample> samples() {
        return List.copyOf(samples);
    }

    /** Forgets every sample, e.g. after this scaler changed the connector and old rates no longer hold. */
    public synchronized void clear() {
        derived = null;
        samples.clear();
    }
}
