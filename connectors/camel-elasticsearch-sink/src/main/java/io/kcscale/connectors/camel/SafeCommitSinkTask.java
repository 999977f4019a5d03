package io.kcscale.connectors.camel;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.camel.kafkaconnector.CamelConnectorConfig;
import org.apache.camel.kafkaconnector.CamelSinkConnectorConfig;
import org.apache.camel.kafkaconnector.CamelSinkTask;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * The Camel sink task with commits that wait for Elasticsearch. The stock task lets Connect commit
 * the offsets of every record it has handed to Camel, including those still held in the aggregator:
 * a crash then loses them. This task tracks them in {@link PendingRecords} and releases each
 * partition's offset only up to its oldest record not yet indexed.
 *
 * <p>A document Elasticsearch rejects for good goes to the connector's dead-letter topic when one is
 * configured, else fails the task naming the document and the reason. A bulk request that fails as a
 * whole makes the next commit fail, and Connect then rewinds to the last committed offsets: the
 * records are delivered again and, their ids being their coordinates, overwrite what was indexed.
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

    private final PendingRecords pending;
    private String registration;
    private ErrantRecordReporter reporter;
    private int maxInFlight;

    public SafeCommitSinkTask() {
        this(new PendingRecords());
    }

    /** With the tracking a test observes. */
    SafeCommitSinkTask(PendingRecords pending) {
        this.pending = pending;
    }

    @Override
    public void start(Map<String, String> props) {
        reporter = context == null ? null : context.errantRecordReporter();
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
        List<SinkRecord> indexable = new ArrayList<>(records.size());
        for (SinkRecord record : records) {
            Optional<String> unindexable = BulkIndexAggregation.unindexable(record.value());
            if (unindexable.isPresent()) {
                reject(record, "record " + RecordCoordinates.of(record).documentId() + " cannot be indexed: " + unindexable.get());
            } else {
                indexable.add(record);
            }
        }
        pending.handedOver(indexable);
        super.put(indexable);
    }

    @Override
    public Map<TopicPartition, OffsetAndMetadata> preCommit(Map<TopicPartition, OffsetAndMetadata> currentOffsets) {
        Optional<String> failure = pending.takeFailure();
        if (failure.isPresent()) {
            throw new ConnectException(failure.get() + "; nothing is committed past its records: Connect rewinds to the "
                    + "last committed offsets and they are indexed again");
        }
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
            PendingRecordsRegistry.unregister(registration);
        }
    }

    /** Nothing of this batch is handed over yet, so Connect can deliver it again after a RetriableException. */
    private void awaitRoomInFlight() {
        try {
            if (!pending.awaitAnswersBelow(maxInFlight, MAX_WAIT_FOR_ANSWERS)) {
                throw new RetriableException("Elasticsearch has not answered for " + MAX_WAIT_FOR_ANSWERS.toSeconds()
                        + " s on " + maxInFlight + " documents or more; Connect delivers this batch again later");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectException("interrupted while waiting for Elasticsearch", e);
        }
    }

    /**
     * To the dead-letter topic when the connector has one (Connect awaits the write before its next
     * commit), else the task fails with {@code reason}.
     */
    private void reject(SinkRecord record, String reason) {
        if (reporter == null) {
            throw new ConnectException(reason + ". To send such records to a dead-letter topic instead of failing, set "
                    + "errors.tolerance=all and errors.deadletterqueue.topic.name");
        }
        reporter.report(record, new DataException(reason));
        pending.settled(record);
    }
}
