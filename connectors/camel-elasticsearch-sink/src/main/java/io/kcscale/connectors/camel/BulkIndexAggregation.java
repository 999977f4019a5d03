package io.kcscale.connectors.camel;

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
 * {@code camel.beans.aggregate.pendingRecords}, through which each request's outcome reaches the task.
 */
public class BulkIndexAggregation implements AggregationStrategy {

    /** The bean property through which {@link SafeCommitSinkTask} sets {@link #setMaxBytes}. */
    static final String MAX_BYTES_PROPERTY = "maxBytes";
    /** A first guess at a batch's size, for the list of its records; it grows past it. */
    private static final int EXPECTED_DOCUMENTS = 1000;

    private String indexName;
    private byte[] actionStart;
    private BulkOutcomes outcomes = BulkOutcomes.UNTRACKED;
    /** Null for the stock task, which traces nothing. */
    private BulkRequestTrace trace;

    private int maxBytes = InFlightSettings.DEFAULT_MAX_BYTES;

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
        Exchange into = batch;
        if (into == null) {
            // the first record's exchange becomes the batch
            into = record;
            into.getMessage().setBody(new BulkBody(actionStart, EXPECTED_DOCUMENTS));
        }
        BulkBody body = into.getMessage().getBody(BulkBody.class);
        body.add(at, value);
        if (body.length() >= maxBytes) {
            // Camel's aggregator checks no size of its own alongside a strategy's pre-completion, so the
            // strategy closes the batch here: a request holds at most maxBytes and the document that reached it
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
