package io.kcscale.connectors.camel;

import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What became of the records of a bulk request: told by {@link BulkCompletion}, on a Camel thread. */
interface BulkOutcomes {

    /** Elasticsearch holds these records' documents: told once per request, not per record, as it is one lock. */
    void indexed(List<RecordCoordinates> records);

    /** Elasticsearch refused this one document for good (say, a mapping conflict); retrying cannot help. */
    void rejected(RecordCoordinates record, String reason);

    /**
     * These documents were refused for now (overload, Elasticsearch failing or unreachable), alone or
     * with their whole request: none of them is indexed, sending them again may help.
     */
    void failed(List<RecordCoordinates> records, String reason);

    /**
     * Refused for a reason sending them again cannot change and that is no document's fault (the whole
     * request answered 400 or 413, no privilege to write, no such index): {@code reason} says which, and what to change.
     */
    void refused(List<RecordCoordinates> records, String reason);

    /**
     * For the stock {@code CamelSinkTask}, which commits offsets without asking: failures can only be
     * logged, and the records they name are lost.
     */
    BulkOutcomes UNTRACKED = new BulkOutcomes() {
        private final Logger log = LoggerFactory.getLogger(BulkOutcomes.class);

        @Override
        public void indexed(List<RecordCoordinates> records) {
            // nothing waits for it
        }

        @Override
        public void rejected(RecordCoordinates record, String reason) {
            log.error(
                    "Elasticsearch rejected document {}: {}. Without {} the record is lost.",
                    record.documentId(),
                    reason,
                    SafeCommitSinkConnector.class.getName());
        }

        @Override
        public void failed(List<RecordCoordinates> records, String reason) {
            log.error(
                    "{} documents of a bulk request failed: {}. Without {} the records are lost.",
                    records.size(),
                    reason,
                    SafeCommitSinkConnector.class.getName());
        }

        @Override
        public void refused(List<RecordCoordinates> records, String reason) {
            failed(records, reason);
        }
    };
}
