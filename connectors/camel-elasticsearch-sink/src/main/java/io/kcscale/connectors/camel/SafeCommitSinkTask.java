package io.kcscale.connectors.camel;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * named, else fails the task naming the document and the reason. Documents refused for now (429
 * items, or a whole request failing with 429, 5xx or no answer) stay pending, holding back their own
 * partitions' commits, and only they are sent again after a back-off ({@link RetrySettings}); their
 * ids being their coordinates, they overwrite whatever of them was indexed. Past the last attempt, or
 * when a whole request is refused for good (a 400, say), the task fails saying what to change.
 * Records whose value is no JSON document never join a request ({@link MalformedRecords}).
 *
 * <p>Up to {@code kcscale.bulk.max.in.flight.requests} bulk requests are in flight at once
 * ({@link AsyncBulkProducer}); their answers may come in any order, and each partition still commits
 * only below its oldest record not yet indexed.
 */
public class SafeCommitSinkTask extends CamelSinkTask {

    /** The {@link BulkIndexAggregation} bean property through which the strategy finds this task. */
    static final String PENDING_RECORDS_PROPERTY = "pendingRecords";

    private static final Logger LOG = LoggerFactory.getLogger(SafeCommitSinkTask.class);

    private static final String COMPONENT_BEAN = "camel.beans." + BulkElasticsearchComponent.NAME;
    /**
     * Camel sends completed batches from a thread of its own and queues up to a thousand of them: the
     * task hands over more only while fewer records than this many batches, beyond the requests in
     * flight, are unsettled (one queued, one filling; records waiting to be sent again count too),
     * which bounds the worker's memory and the replay after a crash.
     */
    private static final int BATCHES_BESIDE_REQUESTS = 2;
    /** How long put() waits for room before handing the batch back to Connect, which pauses and delivers it again. */
    private static final Duration MAX_WAIT_FOR_ROOM = Duration.ofSeconds(60);

    private final Duration maxWaitForRoom;
    private final Duration maxWaitForDeadLetters;

    private PendingRecords pending;
    private BulkRequestTrace trace;
    private String registration;
    private DeadLetters deadLetters;
    private MalformedRecords malformed;
    private RetrySchedule retries;
    private int maxInFlight;
    private long maxInFlightBytes;
    private int maxBytes;
    private Duration outcomeTimeout;

    public SafeCommitSinkTask() {
        this(MAX_WAIT_FOR_ROOM, DeadLetters.MAX_WAIT_FOR_WRITES);
    }

    /** With a test's waits for room and for dead-letter writes. */
    SafeCommitSinkTask(Duration maxWaitForRoom, Duration maxWaitForDeadLetters) {
        this.maxWaitForRoom = maxWaitForRoom;
        this.maxWaitForDeadLetters = maxWaitForDeadLetters;
    }

    @Override
    public void start(Map<String, String> props) {
        deadLetters = DeadLetters.of(props, context, maxWaitForDeadLetters);
        malformed = MalformedRecords.of(props, deadLetters);
        retries = RetrySettings.schedule(props);
        pending = new PendingRecords(retries, System::nanoTime);
        CamelSinkConnectorConfig config = new CamelSinkConnectorConfig(props);
        int maxInFlightRequests = InFlightSettings.maxInFlightRequests(props);
        maxInFlight = (maxInFlightRequests + BATCHES_BESIDE_REQUESTS)
                * config.getInt(CamelConnectorConfig.CAMEL_CONNECTOR_AGGREGATE_SIZE_CONF);
        maxBytes = InFlightSettings.maxBytes(props);
        maxInFlightBytes = (long) (maxInFlightRequests + BATCHES_BESIDE_REQUESTS) * maxBytes;
        outcomeTimeout = InFlightSettings.outcomeTimeout(props);
        trace = new BulkRequestTrace();
        try {
            trace.publish(context.pluginMetrics());
        } catch (IllegalArgumentException | IllegalStateException e) {
            // a trace is no reason to stop indexing: say so once and carry on
            LOG.warn("the bulk request trace is not published as this task's metrics: {}", e.getMessage());
        } catch (NoSuchMethodError olderWorker) {
            // plugin metrics came with Kafka 4.0's Connect; on an older worker the sink indexes without them
            LOG.warn(
                    "the bulk request trace is not published: this worker's Connect has no plugin metrics (Kafka 4.0+)");
        }
        registration = PendingRecordsRegistry.register(pending, trace);
        Map<String, String> withPending = new HashMap<>(props);
        withPending.put(BulkModeConfig.STRATEGY_BEAN + "." + PENDING_RECORDS_PROPERTY, registration);
        withPending.put(
                BulkModeConfig.STRATEGY_BEAN + "." + BulkIndexAggregation.MAX_BYTES_PROPERTY, String.valueOf(maxBytes));
        withPending.put(
                BulkModeConfig.STRATEGY_BEAN + "." + BulkIndexAggregation.MAX_WAIT_PROPERTY,
                String.valueOf(config.getLong(CamelConnectorConfig.CAMEL_CONNECTOR_AGGREGATE_TIMEOUT_CONF)));
        withPending.put(
                SinkOperation.URL,
                SinkOperation.sentThrough(props.get(SinkOperation.URL), BulkElasticsearchComponent.NAME));
        withPending.put(COMPONENT_BEAN, "#class:" + BulkElasticsearchComponent.class.getName());
        withPending.put(COMPONENT_BEAN + ".maxInFlightRequests", String.valueOf(maxInFlightRequests));
        try {
            super.start(withPending);
        } catch (RuntimeException e) {
            PendingRecordsRegistry.unregister(registration);
            throw e;
        }
    }

    /** What the task tracks, for tests to observe. */
    PendingRecords pending() {
        return pending;
    }

    /**
     * Only the sink's own coordinates header goes to Camel with each document ({@link RecordForCamel}), and
     * every dead-letter write of the batch is confirmed before it returns, after which Connect may commit it.
     */
    @Override
    public void put(Collection<SinkRecord> records) {
        awaitRoomInFlight();
        List<Document> documents = new ArrayList<>(records.size());
        for (Document document : malformed.screen(records)) {
            if (document.size() <= maxBytes) {
                documents.add(document);
            } else {
                deadLetters.sendOrFail(
                        document.record(),
                        "the record at " + document.at().described() + " holds a document of "
                                + document.size() + " bytes, more than one bulk request may carry ("
                                + InFlightSettings.MAX_BYTES
                                + "=" + maxBytes + ")");
            }
        }
        pending.handedOver(documents);
        handToCamel(documents);
        deadLetters.awaitWritten();
        deadLetters.batchDone();
        // Connect polls again within this, so records waiting for their back-off go on time
        pending.untilNextRetry().ifPresent(until -> context.timeout(Math.max(1, until.toMillis())));
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
     * Deals with the outcomes answered so far, then waits until fewer records than the bound are
     * unsettled. Nothing of this batch is handed over yet, so Connect can deliver it again after a
     * RetriableException.
     */
    private void awaitRoomInFlight() {
        long deadline = System.nanoTime() + maxWaitForRoom.toNanos();
        try {
            while (true) {
                dealWithOutcomes();
                if (pending.inFlight() < maxInFlight && pending.inFlightBytes() < maxInFlightBytes) {
                    return;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    context.timeout(retries.initial().toMillis());
                    throw new RetriableException(pending.inFlight() + " documents (" + pending.inFlightBytes()
                            + " bytes) have not "
                            + "been indexed for " + maxWaitForRoom.toMillis() + " ms (at most " + maxInFlight
                            + " documents and "
                            + maxInFlightBytes + " bytes may be in flight); Connect delivers this batch again later");
                }
                long waiting = System.nanoTime();
                try {
                    pending.awaitNews(Duration.ofNanos(left));
                } finally {
                    trace.waitedForRoom(System.nanoTime() - waiting);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectException("interrupted while waiting for Elasticsearch", e);
        }
    }

    /**
     * On the task's thread: the failure that stops the task, rejections to report (settled once their
     * dead-letter copies are written), records without an outcome for too long, records to send again.
     */
    private void dealWithOutcomes() {
        pending.failure().ifPresent(failure -> {
            throw new ConnectException(failure);
        });
        List<PendingRecords.Rejection> rejections = pending.takeRejections();
        for (PendingRecords.Rejection rejection : rejections) {
            deadLetters.sendOrFail(rejection.record(), rejection.reason());
        }
        deadLetters.awaitWritten();
        rejections.forEach(rejection -> pending.settled(rejection.record()));
        pending.expireOverdue(outcomeTimeout);
        handToCamel(pending.takeDueRetries());
    }

    private void handToCamel(List<Document> documents) {
        if (!documents.isEmpty()) {
            super.put(documents.stream()
                    .map(document -> RecordForCamel.of(document, RecordCoordinates.HEADER))
                    .toList());
        }
    }
}
