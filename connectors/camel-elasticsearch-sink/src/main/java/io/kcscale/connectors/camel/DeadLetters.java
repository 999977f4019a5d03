package io.kcscale.connectors.camel;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTaskContext;

/**
 * The connector's dead-letter topic, if it has one. Connect hands a task a reporter whenever
 * errors.tolerance=all, even without a topic (it then only logs, or drops): a record "reported" there
 * would be committed and lost, so a record goes to the reporter only when the topic is named. Without
 * errors.tolerance=all Connect fails the task after writing each report, and a restarted task writes
 * the record again: both settings are needed.
 *
 * <p>Connect awaits only the reports still in flight before it commits; a write its producer failed at
 * once (a record over max.request.size, an unknown topic) would be committed and lost. So the task awaits
 * every write ({@link #awaitWritten}) before it lets a record's offset go, and a failed one fails the task.
 */
final class DeadLetters {

    static final String TOPIC_CONFIG = "errors.deadletterqueue.topic.name";
    static final String TOLERANCE_CONFIG = "errors.tolerance";
    static final String HOW_TO_CONFIGURE = "set " + TOLERANCE_CONFIG + "=all and " + TOPIC_CONFIG;
    /**
     * Past Connect's dead-letter producer's own delivery.timeout.ms (120 s by default), which ends every write first,
     * and within the consumer's max.poll.interval.ms (5 minutes by default), past which Kafka would take the task's
     * partitions away while it waits.
     */
    static final Duration MAX_WAIT_FOR_WRITES = Duration.ofSeconds(130);

    /** A report whose write has not been confirmed yet. */
    private record Write(RecordCoordinates at, Future<Void> done) {}

    private final ErrantRecordReporter reporter;
    private final Duration maxWait;
    private final List<Write> unconfirmed = new ArrayList<>();
    /** Records written since the last batch the task finished: a batch Connect delivers again is not written twice. */
    private final Set<RecordCoordinates> written = new HashSet<>();

    private DeadLetters(ErrantRecordReporter reporter, Duration maxWait) {
        this.reporter = reporter;
        this.maxWait = maxWait;
    }

    static DeadLetters of(Map<String, String> config, SinkTaskContext context) {
        return of(config, context, MAX_WAIT_FOR_WRITES);
    }

    /** With a test's wait for writes. */
    static DeadLetters of(Map<String, String> config, SinkTaskContext context, Duration maxWait) {
        ErrantRecordReporter reporter = context == null ? null : context.errantRecordReporter();
        return new DeadLetters(configured(config) ? reporter : null, maxWait);
    }

    /** Whether {@code config} names a dead-letter topic and tolerates errors, without which Connect fails the task on each report. */
    static boolean configured(Map<String, String> config) {
        String topic = config.get(TOPIC_CONFIG);
        return topic != null
                && !topic.isBlank()
                && "all"
                        .equalsIgnoreCase(
                                config.getOrDefault(TOLERANCE_CONFIG, "none").trim());
    }

    boolean available() {
        return reporter != null;
    }

    /** Whether the record is in the dead-letter topic already, written for an earlier delivery of its batch. */
    boolean written(SinkRecord record) {
        return written.contains(RecordCoordinates.of(record));
    }

    /** Connect writes it with {@code reason} in its headers; {@link #awaitWritten} confirms the write. */
    void send(SinkRecord record, String reason) {
        RecordCoordinates at = RecordCoordinates.of(record);
        if (!written.contains(at)) {
            unconfirmed.add(new Write(at, reporter.report(record, new DataException(reason))));
        }
    }

    /**
     * A record Elasticsearch refused for good: to the dead-letter topic when there is one, else the
     * task fails with {@code reason}, so that nothing past the record is committed.
     */
    void sendOrFail(SinkRecord record, String reason) {
        if (!available()) {
            throw new ConnectException(
                    reason + ". To send such records to a dead-letter topic instead of failing, " + HOW_TO_CONFIGURE);
        }
        send(record, reason);
    }

    /**
     * Waits until every record sent is in the dead-letter topic, done or not.
     *
     * @throws ConnectException naming the first record whose write failed and the producer's reason
     */
    void awaitWritten() {
        long deadline = System.nanoTime() + maxWait.toNanos();
        try {
            for (Write write : unconfirmed) {
                write.done().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                written.add(write.at());
            }
        } catch (ExecutionException e) {
            throw new ConnectException(failed(e.getCause()), e.getCause());
        } catch (TimeoutException e) {
            throw new ConnectException(
                    failed(new TimeoutException("no acknowledgement within " + maxWait.toSeconds() + " s")), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectException("interrupted while waiting for the dead-letter topic", e);
        } finally {
            unconfirmed.clear();
        }
    }

    /** The task has finished a batch: Connect will not deliver its records again. */
    void batchDone() {
        written.clear();
    }

    private String failed(Throwable why) {
        RecordCoordinates first = unconfirmed.stream()
                .filter(w -> !written.contains(w.at()))
                .findFirst()
                .map(Write::at)
                .orElseThrow();
        return "the dead-letter copy of the record at " + first.described() + " was not written ("
                + why.getClass().getSimpleName()
                + ": " + why.getMessage() + "); its offset is not committed. Fix the cause (a record larger than the "
                + "dead-letter producer's max.request.size asks for producer.override.max.request.size, with the topic's "
                + "max.message.bytes to match) and restart the task";
    }
}
