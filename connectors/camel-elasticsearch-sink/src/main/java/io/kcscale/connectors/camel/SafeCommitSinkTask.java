package io.kcscale.connectors.camel;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.apache.camel.kafkaconnector.CamelConnectorConfig;
import org.apache.camel.kafkaconnector.CamelSinkConnectorConfig;
import org.apache.camel.kafkaconnector.CamelSinkTask;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Camel sink task with commits that wait for Elasticsearch. The stock task lets Connect commit
 * the offsets of every record it has handed to Camel, including those still held in the aggregator:
 * a crash then loses them. This task tracks them in {@link PendingRecords} and releases each
 * partition's offset only up to its oldest record not yet indexed.
 *
 * <p>A document Elasticsearch rejects for good goes to the connector's dead-letter topic when one is
 * named, else fails the task naming the document and the reason. The records of a request that fails
 * as a whole (Elasticsearch unreachable or overloaded) stay pending, holding back their own
 * partitions' commits, and are sent again after a pause; their ids being their coordinates, they
 * overwrite whatever of them was indexed. Records whose value is no JSON document never join a
 * request ({@link MalformedRecords}).
 */
public class SafeCommitSinkTask extends CamelSinkTask {

    /** The {@link BulkIndexAggregation} bean property through which the strategy finds this task. */
    static final String PENDING_RECORDS_PROPERTY = "pendingRecords";
    /**
     * Camel sends completed batches from a thread of its own and queues up to a thousand of them: the
     * task hands over more only while fewer batches than this wait for an answer (one being sent, one
     * queued, one filling), which bounds the worker's memory and the replay after a crash.
     */
    private static final int BATCHES_IN_FLIGHT = 3;
    private static final Duration MAX_WAIT_FOR_ANSWERS = Duration.ofSeconds(60);
    /** Between a failed request and sending its records again: an unreachable Elasticsearch is not hammered. */
    private static final Duration RETRY_PAUSE = Duration.ofSeconds(1);
    private static final Logger LOG = LoggerFactory.getLogger(SafeCommitSinkTask.class);

    private final PendingRecords pending;
    private final Duration retryPause;
    private String registration;
    private DeadLetters deadLetters;
    private MalformedRecords malformed;
    private int maxInFlight;

    public SafeCommitSinkTask() {
        this(new PendingRecords(), RETRY_PAUSE);
    }

    /** With the tracking a test observes, and its pause before retries. */
    SafeCommitSinkTask(PendingRecords pending, Duration retryPause) {
        this.pending = pending;
        this.retryPause = retryPause;
    }

    @Override
    public void start(Map<String, String> props) {
        deadLetters = DeadLetters.of(props, context);
        malformed = MalformedRecords.of(props, deadLetters);
        CamelSinkConnectorConfig config = new CamelSinkConnectorConfig(props);
        maxInFlight = BATCHES_IN_FLIGHT * config.getInt(CamelConnectorConfig.CAMEL_CONNECTOR_AGGREGATE_SIZE_CONF);
        registration = PendingRecordsRegistry.register(pending);
        Map<String, String> withPending = new HashMap<>(props);
        withPending.put(BulkModeConfig.STRATEGY_BEAN + "." + PENDING_RECORDS_PROPERTY, registration);
        try {
            super.start(withPending);
        } catch (RuntimeException e) {
            PendingRecordsRegistry.unregister(registration);
            throw e;
        }
    }

    @Override
    public void put(Collection<SinkRecord> records) {
        awaitRoomInFlight();
        // rejections answered since the last call, on Camel's thread
        for (PendingRecords.Rejection rejection : pending.takeRejections()) {
            reject(rejection.record(), rejection.reason());
        }
        List<SinkRecord> documents = malformed.screen(records);
        pending.handedOver(documents);
        super.put(documents);
    }

    @Override
    public Map<TopicPartition, OffsetAndMetadata> preCommit(Map<TopicPartition, OffsetAndMetadata> currentOffsets) {
        return pending.committable(currentOffsets);
    }

    @Override
    public void close(Collection<TopicPartition> partitions) {
        pending.forget(partitions);
        super.close(partitions);
    }

    @Override
    public void stop() {
        try {
            super.stop();
        } finally {
            // Connect stops a task whose start failed, perhaps before it registered
            if (registration != null) {
                PendingRecordsRegistry.unregister(registration);
            }
        }
    }

    /**
     * Until fewer than the bound await an answer, sending the records of failed requests again
     * meanwhile. Nothing of this batch is handed over yet, so Connect can deliver it again after a
     * RetriableException.
     */
    private void awaitRoomInFlight() {
        long deadline = System.nanoTime() + MAX_WAIT_FOR_ANSWERS.toNanos();
        try {
            while (true) {
                sendFailedAgain();
                Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
                boolean answered = pending.awaitAnswersBelow(maxInFlight, left);
                if (answered && !pending.hasRetry()) {
                    return;
                }
                if (!answered || left.isZero()) {
                    throw new RetriableException("Elasticsearch has not indexed " + maxInFlight + " documents or more for "
                            + MAX_WAIT_FOR_ANSWERS.toSeconds() + " s; Connect delivers this batch again later");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectException("interrupted while waiting for Elasticsearch", e);
        }
    }

    private void sendFailedAgain() throws InterruptedException {
        Optional<PendingRecords.Retry> retry = pending.takeRetry();
        if (retry.isPresent()) {
            LOG.warn("{}; its {} records of partitions not committed past them are sent again in {} ms", retry.get().reason(),
                    retry.get().records().size(), retryPause.toMillis());
            // a pause, not a wait for a state: there is no telling when Elasticsearch is back
            TimeUnit.NANOSECONDS.sleep(retryPause.toNanos());
            super.put(retry.get().records());
        }
    }

    /**
     * To the dead-letter topic when the connector names one (Connect awaits the write before its next
     * commit), else the task fails with {@code reason}.
     */
    private void reject(SinkRecord record, String reason) {
        if (!deadLetters.available()) {
            throw new ConnectException(reason + ". To send such records to a dead-letter topic instead of failing, "
                    + DeadLetters.HOW_TO_CONFIGURE);
        }
        deadLetters.send(record, reason);
        pending.settled(record);
    }
}
