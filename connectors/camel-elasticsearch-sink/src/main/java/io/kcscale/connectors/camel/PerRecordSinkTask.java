package io.kcscale.connectors.camel;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.camel.component.elasticsearch.ElasticsearchConstants;
import org.apache.camel.kafkaconnector.CamelSinkTask;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTaskContext;

/**
 * The Camel sink task, one index request per record, with these changes. Each record is one
 * {@code PUT} through a low-level client kept for the task's life ({@link PerRecordProducer}), not a
 * new high-level client per record as Camel's producer builds. Each document's id is its
 * record's {@code topic-partition-offset} (Camel's {@code indexId} header), so a record delivered again
 * after a crash or a rebalance overwrites its document instead of adding one; it is the only header
 * Camel sees ({@link RecordForCamel}): operation and index come from the configuration alone. Records
 * whose value is no JSON document never reach Camel ({@link MalformedRecords}). A document
 * Elasticsearch refuses for its content goes to the dead-letter topic when one is named, else fails the
 * task, as in bulk mode; one refused for now (429, 5xx, unreachable, a closed index) hands the batch
 * back to Connect, which delivers it again after a back-off ({@link RetrySettings}), until the last
 * attempt fails the task; a refusal no document is to blame for (credentials, no such index) fails the
 * task at once. A record already in the dead-letter topic is neither sent nor written again when
 * Connect delivers its batch again.
 */
public class PerRecordSinkTask extends CamelSinkTask {

    private static final String COMPONENT_BEAN = "camel.beans." + PerRecordElasticsearchComponent.NAME;

    private final LongSupplier nanoClock;

    private MalformedRecords malformed;
    private DeadLetters deadLetters;
    private RetrySchedule retries;
    /** The record that failed last for now, and how often in a row: a redelivered batch sends it again. */
    private RecordCoordinates failing;

    private int failures;
    /**
     * When {@code failing} may be sent again ({@code nanoClock}): Connect delivers a handed-back batch at its
     * next offset commit at the latest, which may come long before the back-off is over.
     */
    private long resendAt;

    public PerRecordSinkTask() {
        this(System::nanoTime);
    }

    PerRecordSinkTask(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    /** Sends each document through {@link PerRecordElasticsearchComponent}, whose client lives as long as the task. */
    @Override
    public void start(Map<String, String> props) {
        deadLetters = DeadLetters.of(props, context);
        malformed = MalformedRecords.of(props, deadLetters);
        retries = RetrySettings.schedule(props);
        Map<String, String> ours = new HashMap<>(props);
        ours.put(
                SinkOperation.URL,
                SinkOperation.sentThrough(props.get(SinkOperation.URL), PerRecordElasticsearchComponent.NAME));
        ours.put(COMPONENT_BEAN, "#class:" + PerRecordElasticsearchComponent.class.getName());
        // the stock task hands a failed record to Connect's reporter whenever there is one, which without
        // a dead-letter topic only logs it before it is committed: without one, it throws and we decide
        SinkTaskContext connect = context;
        context = null;
        try {
            super.start(ours);
        } finally {
            context = connect;
        }
    }

    @Override
    public void put(Collection<SinkRecord> records) {
        if (!records.isEmpty()) {
            waitOutBackoff();
        }
        for (Document document : malformed.screen(records)) {
            if (deadLetters.written(document.record())) {
                continue;
            }
            try {
                super.put(List.of(RecordForCamel.of(document, ElasticsearchConstants.PARAM_INDEX_ID)));
            } catch (ConnectException e) {
                // the stock task's one failure: the exchange failed, with the client's exception as the cause
                failed(document.record(), RequestFailure.of(e.getCause()));
            }
        }
        deadLetters.awaitWritten();
        deadLetters.batchDone();
        failing = null;
    }

    /** Hands the batch back again, unsent, while the failing record's back-off lasts. */
    private void waitOutBackoff() {
        long leftMs = failing == null ? 0 : TimeUnit.NANOSECONDS.toMillis(resendAt - nanoClock.getAsLong());
        if (leftMs > 0) {
            context.timeout(leftMs);
            throw new RetriableException("waiting " + leftMs + " ms more before sending document "
                    + failing.documentId() + " again (attempt " + (failures + 1) + ")");
        }
    }

    private void failed(SinkRecord record, RequestFailure failure) {
        RecordCoordinates at = RecordCoordinates.of(record);
        if (failure.kind() == RequestFailure.Kind.DOCUMENT) {
            deadLetters.sendOrFail(
                    record, "Elasticsearch rejected document " + at.documentId() + ": " + failure.reason());
            return;
        }
        // what went to the dead-letter topic before this record is there before the batch goes back
        deadLetters.awaitWritten();
        if (failure.kind() == RequestFailure.Kind.OPERATIONAL) {
            throw new ConnectException("Elasticsearch refused document " + at.documentId()
                    + " for a reason no document is to " + "blame for: " + failure.reason()
                    + ". The task stops before committing past it; restart it once the cause is fixed");
        }
        failures = at.equals(failing) ? failures + 1 : 1;
        failing = at;
        if (!retries.allowsAnother(failures)) {
            throw new ConnectException(RetrySettings.usedUp(1, at.topicPartition(), failures, failure.reason()) + ": "
                    + RetrySettings.howToCarryOn(failure.reason()));
        }
        long delay = retries.delayAfter(failures).toMillis();
        resendAt = nanoClock.getAsLong() + TimeUnit.MILLISECONDS.toNanos(delay);
        context.timeout(delay);
        throw new RetriableException("Elasticsearch refused document " + at.documentId() + " for now ("
                + failure.reason() + "); Connect delivers its batch again in " + delay + " ms");
    }
}
