package io.kcscale.lab.chaos;

import io.kcscale.local.Offsets;
import io.kcscale.local.StackOptions;
import io.kcscale.scaler.kafka.KafkaReadingsClient;
import io.kcscale.scaler.model.SinkTarget;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Reads the topic's end and the sink group's committed offsets every second, on a thread of its own, and
 * keeps the largest {@link TimeLag} seen. A reading that fails (the broker is restarting) is skipped:
 * the next one after it covers the gap, since the lag is dated from when records were appended.
 */
final class LagSampler implements AutoCloseable {

    private static final Duration INTERVAL = Duration.ofSeconds(1);

    private final KafkaReadingsClient kafka;
    private final TimeLag lag = new TimeLag();
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "chaos-sampler");
        t.setDaemon(true);
        return t;
    });
    private volatile Offsets latest;

    LagSampler(String bootstrapServers) {
        this.kafka = new KafkaReadingsClient(bootstrapServers, Map.of(), Duration.ofSeconds(5));
    }

    void start() {
        thread.scheduleWithFixedDelay(this::sample, 0, INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void sample() {
        try {
            Offsets o = Offsets.read(kafka, SinkTarget.consumerGroup(StackOptions.SINK_CONNECTOR), StackOptions.TOPIC);
            synchronized (lag) {
                lag.sample((long) o.atMillis(), o.appended(), o.consumed());
            }
            latest = o;
        } catch (RuntimeException unavailable) {
            // a broker restart: no reading this second
        }
    }

    /** The latest reading, or null before the first. */
    Offsets latest() {
        return latest;
    }

    double maxLagSeconds() {
        synchronized (lag) {
            return Math.round(lag.maxSeconds() * 10) / 10.0;
        }
    }

    @Override
    public void close() {
        thread.shutdownNow();
        kafka.close();
    }
}
