package io.kcscale.connectors.camel;

import java.util.ArrayList;
import java.util.List;
import org.apache.camel.Exchange;
import org.apache.camel.spi.Synchronization;

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
        if (!(body instanceof BulkAnswer)) {
            outcomes.refused(
                    records,
                    "the Elasticsearch producer answered with "
                            + (body == null ? "nothing" : body.getClass().getName())
                            + ", not a bulk answer: is operation=Bulk set?");
            return;
        }
        BulkAnswer answer = (BulkAnswer) body;
        List<RecordCoordinates> indexed = new ArrayList<>(answer.items());
        List<RecordCoordinates> retriable = new ArrayList<>();
        String retriableReason = null;
        List<RecordCoordinates> refused = new ArrayList<>();
        String refusedReason = null;
        for (int item = 0; item < answer.items(); item++) {
            RecordCoordinates record = records.get(item);
            if (!answer.failed(item)) {
                indexed.add(record);
                continue;
            }
            switch (answer.kind(item)) {
                case FOR_NOW -> {
                    // a full write queue (429) or a closed index: only these items go again
                    retriable.add(record);
                    retriableReason = RequestFailure.described(answer.status(item)) + ": " + answer.reason(item);
                }
                case DOCUMENT -> outcomes.rejected(record, answer.reason(item));
                case OPERATIONAL -> {
                    // credentials, privileges, a missing index: the first item says what to change for all
                    refused.add(record);
                    if (refusedReason == null) {
                        refusedReason = "document " + record.documentId() + " was refused with "
                                + RequestFailure.described(answer.status(item)) + " (" + answer.reason(item) + "); "
                                + RequestFailure.whatToChange(answer.status(item), answer.type(item));
                    }
                }
            }
        }
        outcomes.indexed(indexed);
        if (!refused.isEmpty()) {
            outcomes.refused(refused, refusedReason);
        }
        if (!retriable.isEmpty()) {
            outcomes.failed(retriable, retriableReason);
        }
    }

    @Override
    public void onFailure(Exchange exchange) {
        RequestFailure failure = RequestFailure.of(exchange.getException());
        if (failure.kind() == RequestFailure.Kind.FOR_NOW) {
            outcomes.failed(records, failure.reason());
        } else {
            outcomes.refused(records, "the bulk request as a whole: " + failure.reason());
        }
    }
}
