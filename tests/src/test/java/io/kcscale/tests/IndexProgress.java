package io.kcscale.tests;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.kcscale.local.LocalStack;
import io.kcscale.scaler.act.RebalancePause;
import io.kcscale.scaler.elasticsearch.ElasticsearchConnection;
import io.kcscale.scaler.elasticsearch.ElasticsearchReadingsClient;
import io.kcscale.scaler.poll.Poll;

/**
 * Reads an index's operation counter every 100 ms in the background, so a test can measure how long
 * indexing paused around a change it made (the longest stretch without progress, as the scaler measures it).
 */
final class IndexProgress implements AutoCloseable {

    private static final Duration INTERVAL = Duration.ofMillis(100);

    private final String index;
    private final ElasticsearchConnection connection;
    private final ElasticsearchReadingsClient observer;
    private final List<RebalancePause.Reading> readings = new ArrayList<>();
    private final ScheduledExecutorService reader = Executors.newSingleThreadScheduledExecutor();

    IndexProgress(LocalStack stack, String index) {
        this.index = index;
        this.connection = new ElasticsearchConnection(stack.endpoints().elasticsearchUrl(), 2000);
        this.observer = new ElasticsearchReadingsClient(connection);
        reader.scheduleAtFixedRate(this::read, 0, INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void read() {
        try {
            long counter = observer.indexStats(index).indexTotal();
            synchronized (readings) {
                readings.add(new RebalancePause.Reading(System.currentTimeMillis(), counter));
            }
        } catch (RuntimeException unavailable) {
            // a missed reading only coarsens the measurement
        }
    }

    /** Waits until the counter grows in a reading taken after {@code atMillis}. */
    void awaitProgressAfter(long atMillis, Duration timeout) {
        Poll.untilTrue(index + " to make progress again", timeout, INTERVAL, () -> {
            synchronized (readings) {
                for (int i = readings.size() - 1; i > 0 && readings.get(i).atMillis() > atMillis; i--) {
                    if (readings.get(i).counter() > readings.get(i - 1).counter()) {
                        return true;
                    }
                }
                return false;
            }
        }, () -> "no index operations since the change converged");
    }

    /**
     * Seconds from {@code fromMillis} until the counter first grew by at least {@code perSecond} over a stretch of
     * {@code over} that began after it; empty when it has not.
     */
    OptionalDouble secondsUntilRate(long fromMillis, double perSecond, Duration over) {
        synchronized (readings) {
            int start = 0;
            for (RebalancePause.Reading r : readings) {
                if (r.atMillis() < fromMillis) {
                    start++;
                    continue;
                }
                while (readings.get(start).atMillis() < r.atMillis() - over.toMillis()) {
                    start++;
                }
                RebalancePause.Reading first = readings.get(start);
                double seconds = (r.atMillis() - first.atMillis()) / 1000.0;
                if (seconds >= over.toMillis() / 1000.0 * 0.9 && r.counter() - first.counter() >= perSecond * seconds) {
                    return OptionalDouble.of((r.atMillis() - fromMillis) / 1000.0);
                }
            }
            return OptionalDouble.empty();
        }
    }

    /** Seconds of the longest stretch without progress that ended after {@code changeAtMillis}. */
    OptionalDouble pauseAround(long changeAtMillis) {
        synchronized (readings) {
            return RebalancePause.seconds(new ArrayList<>(readings), changeAtMillis);
        }
    }

    @Override
    public void close() throws Exception {
        reader.shutdownNow();
        connection.close();
    }
}
