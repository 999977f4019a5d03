package io.kcscale.connectors.camel;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.camel.AggregationStrategy;
import org.apache.camel.Exchange;
import org.apache.camel.ExchangePropertyKey;
import org.apache.camel.ExtendedExchange;

/**
 * A Camel {@link AggregationStrategy} that turns a batch of records into one Elasticsearch bulk
 * request of index operations ({@link BulkBody}), each document's id being its record's {@code topic-partition-offset}:
 * a replay after a crash or a rebalance overwrites documents instead of duplicating them.
 *
 * <p>Used through the Camel connector's own settings: {@code camel.beans.aggregate=#class:} this
 * class, {@code camel.beans.aggregate.indexName}, {@code camel.aggregation.size},
 * {@code camel.aggregation.timeout}, with {@code operation=Bulk} in the sink URL and
 * {@link CoordinatesHeaders} among the transforms. {@link SafeCommitSinkTask} also sets
 * {@code camel.beans.aggregate.pendingRecords}, through which each request's outcome reaches the task, and the
 * bounds of a batch: {@code maxBytes} ({@code kcscale.bulk.max.bytes}) and {@code maxWaitMs}
 * ({@code camel.aggregation.timeout}, from a batch's first record).
 */
public class BulkIndexAggregation implements AggregationStrategy {

    /** The bean property through which {@link SafeCommitSinkTask} sets {@link #setMaxBytes}. */
    static final String MAX_BYTES_PROPERTY = "maxBytes";
    /** The bean property through which {@link SafeCommitSinkTask} sets {@link #setMaxWaitMs}. */
    static final String MAX_WAIT_PROPERTY = "maxWaitMs";
    /** A first guess at a batch's size, for the list of its records; it grows past it. */
    private static final int EXPECTED_DOCUMENTS = 1000;

    private String indexName;
    private byte[] actionStart;
    private BulkOutcomes outcomes = BulkOutcomes.UNTRACKED;
    /** Null for the stock task, which traces nothing. */
    private BulkRequestTrace trace;

    private int maxBytes = InFlightSettings.DEFAULT_MAX_BYTES;
    /** No bound for the stock task, which sets none. */
    private long maxWaitNanos = Long.MAX_VALUE;

    private final LongSupplier nanoClock;

    public BulkIndexAggregation() {
        this(System::nanoTime);
    }

    /** With a test's clock. */
    BulkIndexAggregation(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    /** The index the documents go to ({@code camel.beans.aggregate.indexName}). */
    public void setIndexName(String indexName) {
        this.indexName = indexName;
        this.actionStart = indexName == null ? null : BulkBody.actionStart(indexName);
    }

    /** Which task's {@link PendingRecords} hears of each request's outcome ({@code camel.beans.aggregate.pendingRecords}). */
    public void setPendingRecords(String id) {
        this.outcomes = PendingRecordsRegistry.lookup(id);
        this.trace = PendingRecordsRegistry.trace(id);
    }

    /** The most bytes of one request's body ({@code camel.beans.aggregate.maxBytes}). */
    public void setMaxBytes(int maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** How long a batch's first record may wait for more ({@code camel.beans.aggregate.maxWaitMs}: camel.aggregation.timeout). */
    public void setMaxWaitMs(long maxWaitMs) {
        this.maxWaitNanos = TimeUnit.MILLISECONDS.toNanos(maxWaitMs);
    }

    /**
     * JSON text (what StringConverter makes of a JSON record) goes into the request as it is, JSON
     * objects (what JsonConverter with schemas.enable=false makes) serialized; the task has kept out
     * every other value ({@link MalformedRecords}).
     */
    @Override
    public Exchange aggregate(Exchange batch, Exchange record) {
        if (indexName == null || indexName.isBlank()) {
            throw new IllegalStateException("set camel.beans.aggregate.indexName to the index the documents go to");
        }
        RecordCoordinates at = RecordCoordinates.fromHeaders(record.getMessage().getHeaders());
        Object value = record.getMessage().getBody();
        long now = nanoClock.getAsLong();
        Exchange into = batch;
        if (into == null) {
            // the first record's exchange becomes the batch
            into = record;
            into.getMessage().setBody(new BulkBody(actionStart, EXPECTED_DOCUMENTS, now));
        }
        BulkBody body = into.getMessage().getBody(BulkBody.class);
        body.add(at, value);
        // Camel's aggregator checks no size of its own alongside a strategy's pre-completion, so the strategy
        // closes the batch here: a request holds at most maxBytes and the document that reached it. Camel's
        // completion timeout restarts with every record, so records coming more often than it would hold a batch
        // open until its size, however long that takes: closed once its first record has waited that long, a
        // batch keeps no record more than about twice the timeout
        if (body.length() >= maxBytes || now - body.startedNanos() >= maxWaitNanos) {
            into.setProperty(ExchangePropertyKey.AGGREGATION_COMPLETE_CURRENT_GROUP, true);
        }
        return into;
    }

    /**
     * Called as the batch leaves for Elasticsearch, the instant it is ready: its outcome is reported, and
     * its times traced, once the request is answered.
     */
    @Override
    public void onCompletion(Exchange batch) {
        if (trace != null) {
            batch.setProperty(
                    BulkRequestTrace.REQUEST_PROPERTY, new BulkRequestTrace.Request(trace, System.nanoTime()));
        }
        batch.adapt(ExtendedExchange.class)
                .addOnCompletion(new BulkCompletion(
                        batch.getMessage().getBody(BulkBody.class).records(), outcomes));
    }
}
