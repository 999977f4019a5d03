package io.kcscale.connectors.camel;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.camel.AggregationStrategy;
import org.apache.camel.Exchange;
import org.apache.camel.ExtendedExchange;
import org.elasticsearch.action.bulk.BulkRequest;
import org.elasticsearch.action.index.IndexRequest;
import org.elasticsearch.common.xcontent.XContentType;

/**
 * A Camel {@link AggregationStrategy} that turns a batch of records into one Elasticsearch bulk
 * request of index operations, each document's id being its record's {@code topic-partition-offset}:
 * a replay after a crash or a rebalance overwrites documents instead of duplicating them.
 *
 * <p>Used through the Camel connector's own settings: {@code camel.beans.aggregate=#class:} this
 * class, {@code camel.beans.aggregate.indexName}, {@code camel.aggregation.size},
 * {@code camel.aggregation.timeout}, with {@code operation=Bulk} in the sink URL and
 * {@link CoordinatesHeaders} among the transforms. {@link SafeCommitSinkTask} also sets
 * {@code camel.beans.aggregate.pendingRecords}, through which each request's outcome reaches the task.
 */
public class BulkIndexAggregation implements AggregationStrategy {

    /** The exchange property holding, in request order, the coordinates of the batch's records. */
    static final String RECORDS_PROPERTY = "kcscale.bulk.records";

    private String indexName;
    private BulkOutcomes outcomes = BulkOutcomes.UNTRACKED;

    /** The index the documents go to ({@code camel.beans.aggregate.indexName}). */
    public void setIndexName(String indexName) {
        this.indexName = indexName;
    }

    /** Which task's {@link PendingRecords} hears of each request's outcome ({@code camel.beans.aggregate.pendingRecords}). */
    public void setPendingRecords(String id) {
        this.outcomes = PendingRecordsRegistry.lookup(id);
    }

    @Override
    @SuppressWarnings("unchecked")
    public Exchange aggregate(Exchange batch, Exchange record) {
        if (indexName == null || indexName.isBlank()) {
            throw new IllegalStateException("set camel.beans.aggregate.indexName to the index the documents go to");
        }
        RecordCoordinates at = RecordCoordinates.fromHeaders(record.getMessage().getHeaders());
        IndexRequest request = indexRequest(at, record.getMessage().getBody());
        Exchange into = batch;
        if (into == null) {
            // the first record's exchange becomes the batch
            into = record;
            into.getMessage().setBody(new BulkRequest());
            into.setProperty(RECORDS_PROPERTY, new ArrayList<RecordCoordinates>());
        }
        into.getMessage().getBody(BulkRequest.class).add(request);
        into.getProperty(RECORDS_PROPERTY, List.class).add(at);
        return into;
    }

    /** Called as the batch leaves for Elasticsearch: its outcome is reported once the request is answered. */
    @Override
    @SuppressWarnings("unchecked")
    public void onCompletion(Exchange batch) {
        List<RecordCoordinates> records = batch.getProperty(RECORDS_PROPERTY, List.class);
        batch.adapt(ExtendedExchange.class).addOnCompletion(new BulkCompletion(List.copyOf(records), outcomes));
    }

    /**
     * JSON text (what StringConverter makes of a JSON record) goes into the request unparsed (the
     * client copies it token by token onto one line, so pretty-printed text cannot break the bulk
     * body); JSON objects (what JsonConverter with schemas.enable=false makes) are serialized again.
     * The task has kept out every other value ({@link MalformedRecords}).
     */
    @SuppressWarnings("unchecked")
    private IndexRequest indexRequest(RecordCoordinates at, Object value) {
        IndexRequest request = new IndexRequest(indexName).id(at.documentId());
        if (value instanceof Map) {
            return request.source((Map<String, ?>) value);
        }
        if (value instanceof String) {
            return request.source((String) value, XContentType.JSON);
        }
        if (value instanceof byte[]) {
            return request.source((byte[]) value, XContentType.JSON);
        }
        throw new IllegalArgumentException("the record at " + at.described() + " cannot be indexed: "
                + JsonDocuments.problem(value).orElse("its value is not JSON"));
    }
}
