package io.kcscale.lab.experiment;

import java.time.Duration;
import java.util.function.LongSupplier;

import io.kcscale.local.StackOptions;
import io.kcscale.scaler.connect.ConnectorChange;
import io.kcscale.scaler.poll.Poll;

/**
 * The stack's datagen source, paced by an experiment or a benchmark. Every change is a read-modify-write
 * of its config, which restarts its task, and returns once the task runs again.
 */
public final class DatagenSource {

    private static final String NAME = StackOptions.SOURCE_CONNECTOR;
    private static final Duration RESTART_TIMEOUT = Duration.ofSeconds(120);

    private final ConnectorChange change;
    private final LongSupplier appended;

    /** @param appended records in the topic the source writes to, read afresh each call */
    public DatagenSource(ConnectorChange change, LongSupplier appended) {
        this.change = change;
        this.appended = appended;
    }

    /** {@code rate} records/s in all (one task), evenly spaced, from now on. */
    void at(double rate) {
        change.edit(NAME, c -> {
            c.put("rate.per.task", String.valueOf(rate));
            c.put("iterations", "-1");
        });
    }

    /** As fast as it can go. */
    public void flatOut() {
        change.edit(NAME, c -> {
            c.remove("rate.per.task");
            c.put("max.interval", "0");
            c.put("iterations", "-1");
        });
    }

    /** Its iterations count all it ever produced: it goes on at its pace until it has produced {@code records}. */
    public void produceUpTo(long records) {
        change.edit(NAME, c -> c.put("iterations", String.valueOf(records)));
    }

    /** Its iterations count all it ever produced, so 1 stops it at once. */
    public void stop() {
        produceUpTo(1);
    }

    /** Waits until the source appends again: a config change restarts its task, which takes a moment. */
    void awaitAppending() {
        long from = appended.getAsLong();
        Poll.untilTrue("the source to append records", RESTART_TIMEOUT, Duration.ofMillis(100), () -> appended.getAsLong() > from,
                () -> "the topic still ends at " + from);
    }
}
