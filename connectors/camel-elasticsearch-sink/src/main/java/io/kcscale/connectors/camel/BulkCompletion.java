package io.kcscale.connectors.camel;

import java.util.ArrayList;
import java.util.List;

import org.apache.camel.Exchange;
import org.apache.camel.spi.Synchronization;
import org.elasticsearch.action.bulk.BulkItemResponse;
import org.elasticsearch.rest.RestStatus;

/**
 * Runs once Camel has sent a bulk request to Elasticsearch and got its answer (or failed to): tells
 * {@link BulkOutcomes} the fate of every record in it, item by item.
 */
final class BulkCompletion implements Synchronization {

    private final List<RecordCoordinates> records;
    private final BulkOutcomes outcomes;

    BulkCompletion(List<RecordCoordinates> records, BulkOutcomes outcomes) {
        this.records = records;
        this.outcomes = outcomes;
    }

    @Override
    public void onComplete(Exchange exchange) {
        Object body = exchange.getMessage().getBody();
        if (!(body instanceof BulkItemResponse[])) {
            outcomes.failed(records, "the Elasticsearch producer answered with "
                    + (body == null ? "nothing" : body.getClass().getName()) + ", not bulk item responses: is operation=Bulk set?");
            return;
        }
        BulkItemResponse[] items = (BulkItemResponse[]) body;
        List<RecordCoordinates> indexed = new ArrayList<>(items.length);
        List<RecordCoordinates> retriable = new ArrayList<>();
        for (BulkItemResponse item : items) {
            RecordCoordinates record = records.get(item.getItemId());
            if (!item.isFailed()) {
                indexed.add(record);
            } else if (item.status() == RestStatus.TOO_MANY_REQUESTS) {
                retriable.add(record);
            } else {
                outcomes.rejected(record, item.getFailureMessage());
            }
        }
        outcomes.indexed(indexed);
        if (!retriable.isEmpty()) {
            outcomes.failed(retriable, "Elasticsearch is overloaded (429 Too Many Requests) for " + retriable.size() + " documents");
        }
    }

    @Override
    public void onFailure(Exchange exchange) {
        Exception cause = exchange.getException();
        outcomes.failed(records, cause == null ? "unknown failure" : cause.getClass().getSimpleName() + ": " + cause.getMessage());
    }
}
