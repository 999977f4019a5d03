package io.kcscale.lab.experiment;

import io.kcscale.local.StackOptions;
import io.kcscale.scaler.connect.ConnectRestException;
import io.kcscale.scaler.connect.ConnectorChange;
import io.kcscale.scaler.poll.Poll;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stack's datagen source, paced by an experiment or a benchmark. Every change is a read-modify-write
 * of its config, which restarts its task, and returns once the task runs again. A change Connect did not
 * answer in time (a worker busy under a benchmark's faults) is made again, a few times: the whole config
 * is written, so writing it twice leaves what writing it once does.
 */
public final class DatagenSource {

    private static final String NAME = StackOptions.SOURCE_CONNECTOR;
    private static final Duration RESTART_TIMEOUT = Duration.ofSeconds(120);
    private static final int ATTEMPTS = 3;
    private static final Logger LOG = LoggerFactory.getLogger(DatagenSource.class);

    private final ConnectorChange change;
    private final LongSupplier appended;

    /** @param appended records in the topic the source writes to, read afresh each call */
    public DatagenSource(ConnectorChange change, LongSupplier appended) {
        this.change = change;
        this.appended = appended;
    }

    /** {@code rate} records/s in all (one task), evenly spaced, from now on. */
    public void at(double rate) {
        edit(c -> {
            c.put("rate.per.task", String.valueOf(rate));
            c.put("iterations", "-1");
        });
    }

    /** As fast as it can go. */
    public void flatOut() {
        edit(c -> {
            c.remove("rate.per.task");
            c.put("max.interval", "0");
            c.put("iterations", "-1");
        });
    }

    /** Its iterations count all it ever produced: it goes on at its pace until it has produced {@code records}. */
    public void produceUpTo(long records) {
        edit(c -> c.put("iterations", String.valueOf(records)));
    }

    /** Its iterations count all it ever produced, so 1 stops it at once. */
    public void stop() {
        produceUpTo(1);
    }

    private void edit(Consumer<Map<String, String>> edit) {
        for (int attempt = 1; ; attempt++) {
            try {
                change.edit(NAME, edit);
                return;
            } catch (ConnectRestException.Unreachable e) {
                if (attempt == ATTEMPTS) {
                    throw e;
                }
                LOG.warn("changing {} again ({} of {}): {}", NAME, attempt + 1, ATTEMPTS, e.getMessage());
            }
        }
    }

    /** Waits until the source appends again: a config change restarts its task, which takes a moment. */
    void awaitAppending() {
        long from = appended.getAsLong();
        Poll.untilTrue(
                "the source to append records",
                RESTART_TIMEOUT,
                Duration.ofMillis(100),
                () -> appended.getAsLong() > from,
                () -> "the topic still ends at " + from);
    }
}
