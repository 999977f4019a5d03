package io.kcscale.lab.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Asks every replica which one leads, every {@link #INTERVAL_MILLIS}, on a thread of its own, and keeps the answers
 * (a bounded number): when there was a leader that autoscales, and who it was.
 */
final class LeaderWatch implements AutoCloseable {

    static final long INTERVAL_MILLIS = 250;
    /** An hour of samples: more than any run. */
    private static final int MAX_SAMPLES = 14_400;

    private final List<ScalerReplica> replicas;
    private final List<LeaderTimeline.Sample> samples = new ArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;

    LeaderWatch(List<ScalerReplica> replicas) {
        this.replicas = List.copyOf(replicas);
        this.thread = new Thread(this::run, "kcscale-leader-watch");
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    private void run() {
        while (running) {
            long at = System.currentTimeMillis();
            List<String> leaders = new ArrayList<>();
            for (ScalerReplica r : replicas) {
                Optional<JsonNode> i = r.instance();
                if (i.isPresent()
                        && i.get().path("leader").asBoolean()
                        && i.get().path("autoscaling").asBoolean()) {
                    leaders.add(i.get().path("id").asText());
                }
            }
            synchronized (samples) {
                if (samples.size() < MAX_SAMPLES) {
                    samples.add(new LeaderTimeline.Sample(at, List.copyOf(leaders)));
                }
            }
            long next = at + INTERVAL_MILLIS - System.currentTimeMillis();
            if (next > 0) {
                try {
                    // the watch's own pace, not a wait for a state
                    Thread.sleep(next);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    private List<LeaderTimeline.Sample> samples() {
        synchronized (samples) {
            return List.copyOf(samples);
        }
    }

    /** What the samples so far show. */
    LeaderTimeline timeline() {
        return new LeaderTimeline(samples());
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
