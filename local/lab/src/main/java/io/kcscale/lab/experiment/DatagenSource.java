package io.kcscale.lab.experiment;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import io.kcscale.local.StackOptions;
import io.kcscale.scaler.poll.Poll;

/**
 * The stack's datagen source, paced by an experiment. Every change is a read-modify-write of its
 * config, which restarts its one task.
 */
final class DatagenSource {

    private static final String NAME = StackOptions.SOURCE_CONNECTOR;
    private static final Duration RESTART_TIMEOUT = Duration.ofSeconds(120);

    private final ConnectCalls connect;
    private final LongSupplier appended;

    /** @param appended records in the topic the source writes to, read afresh each call */
    DatagenSource(ConnectCalls connect, LongSupplier appended) {
        this.connect = connect;
        this.appended = appended;
    }

    /** {@code rate} records/s in all (one task), evenly spaced, from now on. */
    void at(double rate) {
        update(c -> {
            c.put("rate.per.task", String.valueOf(rate));
            c.put("iterations", "-1");
        });
    }

    /** As fast as it can go. */
    void flatOut() {
        update(c -> {
            c.remove("rate.per.task");
            c.put("max.interval", "0");
            c.put("iterations", "-1");
        });
    }

    /** Its iterations count all it ever produced, so 1 stops it at once. */
    void stop() {
        update(c -> c.put("iterations", "1"));
    }

    /** Waits until the source appends again: a config change restarts its task, which takes a moment. */
    void awaitAppending() {
        long from = appended.getAsLong();
        Poll.untilTrue("the source to append records", RESTART_TIMEOUT, Duration.ofMillis(100), () -> appended.getAsLong() > from,
                () -> "the topic still ends at " + from);
    }

    private void update(Consumer<Map<String, String>> change) {
        connect.call("reconfigure " + NAME, () -> {
            Map<String, String> config = new HashMap<>(connect.client().connectorConfig(NAME));
            change.accept(config);
            connect.client().putConnectorConfig(NAME, config);
        });
    }
}
