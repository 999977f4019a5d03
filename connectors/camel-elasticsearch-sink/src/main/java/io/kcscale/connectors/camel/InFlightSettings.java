package io.kcscale.connectors.camel;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;

/**
 * How much one bulk-mode task keeps in flight, and for how long: bulk requests at once (while
 * Elasticsearch indexes one, the task's thread fills the next; Confluent's sink calls it
 * {@code max.in.flight.requests}), the bytes of one request, and how long a record handed to Camel may
 * go without an outcome.
 */
final class InFlightSettings {

    static final String MAX_IN_FLIGHT_REQUESTS = "kcscale.bulk.max.in.flight.requests";
    static final String MAX_BYTES = "kcscale.bulk.max.bytes";
    static final String OUTCOME_TIMEOUT_MS = "kcscale.bulk.outcome.timeout.ms";
    /** Measured with {@code ./kcscale bench connectors}: see docs/sink.md and docs/performance.md. */
    static final int DEFAULT_MAX_IN_FLIGHT_REQUESTS = 2;
    /**
     * 10 MiB: the middle of the 5-15 MB Elasticsearch suggests starting bulk requests at, a tenth of its
     * http.max_content_length (100 MB), and (2 requests in flight + 2 batches) x 10 MiB x two copies
     * (the records and the body) = 80 MiB of a worker's heap per task at most.
     */
    static final int DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
    /**
     * Half Elasticsearch's default http.max_content_length (100 MB, past which it answers 413): a request
     * holds at most this and one document no larger.
     */
    private static final int MOST_BYTES = 50 * 1024 * 1024;
    /**
     * 3 minutes: past the aggregation timeout, a wait for a free request (connect + socket timeout, 30 s
     * each by default) and the request itself (as long again), so only a record nothing answers for
     * reaches it.
     */
    private static final long DEFAULT_OUTCOME_TIMEOUT_MS = 180_000;
    /** Each request holds a batch of documents in the worker's heap, and Elasticsearch's write queue takes few more. */
    private static final int MOST = 16;

    private InFlightSettings() {}

    /** {@code definitions} with these settings added, so Connect checks each value and names its key. */
    static ConfigDef define(ConfigDef definitions) {
        return definitions
                .define(
                        MAX_IN_FLIGHT_REQUESTS,
                        ConfigDef.Type.INT,
                        DEFAULT_MAX_IN_FLIGHT_REQUESTS,
                        ConfigDef.Range.between(1, MOST),
                        ConfigDef.Importance.MEDIUM,
                        "Bulk requests one task keeps in flight at once (1 to " + MOST
                                + "). Offsets are still committed only "
                                + "below records Elasticsearch has indexed, whatever order the answers come in.")
                .define(
                        MAX_BYTES,
                        ConfigDef.Type.INT,
                        DEFAULT_MAX_BYTES,
                        ConfigDef.Range.between(64 * 1024, MOST_BYTES),
                        ConfigDef.Importance.MEDIUM,
                        "The bytes at which a bulk request closes, as it does at camel.aggregation.size "
                                + "records, whichever comes first (so a request holds at most this and the document that "
                                + "reached it); a task hands records over only while it holds fewer than (requests in flight "
                                + "+ 2) times this many. A document larger than this on its own goes to the dead-letter "
                                + "topic, or fails the task when there is none.")
                .define(
                        OUTCOME_TIMEOUT_MS,
                        ConfigDef.Type.LONG,
                        DEFAULT_OUTCOME_TIMEOUT_MS,
                        ConfigDef.Range.between(1_000, 3_600_000),
                        ConfigDef.Importance.LOW,
                        "How long a record handed to Camel may go without being indexed or refused: "
                                + "past it the record is logged and sent again, which counts as a failed send ("
                                + RetrySettings.MAX_ATTEMPTS + ").");
    }

    static int maxInFlightRequests(Map<String, String> config) {
        return values(config).getInt(MAX_IN_FLIGHT_REQUESTS);
    }

    static int maxBytes(Map<String, String> config) {
        return values(config).getInt(MAX_BYTES);
    }

    static Duration outcomeTimeout(Map<String, String> config) {
        return Duration.ofMillis(values(config).getLong(OUTCOME_TIMEOUT_MS));
    }

    private static AbstractConfig values(Map<String, String> config) {
        return new AbstractConfig(define(new ConfigDef()), config, false);
    }
}
