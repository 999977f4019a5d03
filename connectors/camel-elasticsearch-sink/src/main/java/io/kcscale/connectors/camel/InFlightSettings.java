package io.kcscale.connectors.camel;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.camel.component.elasticsearch.ElasticsearchConstants;
import org.apache.camel.kafkaconnector.CamelConnectorConfig;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

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
    /** Camel's: how long a batch waits without a new record, and (in bulk mode) how long its first record waits. */
    static final String AGGREGATION_TIMEOUT = CamelConnectorConfig.CAMEL_CONNECTOR_AGGREGATE_TIMEOUT_CONF;
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
     * 3 minutes: past the longest a record waits in Camel's aggregator, for a free request (connect + socket
     * timeout, 30 s each by default) and for the request itself (as long again), so only a record nothing
     * answers for reaches it ({@link #problems}).
     */
    private static final long DEFAULT_OUTCOME_TIMEOUT_MS = 180_000;
    /** Camel's aggregator looks for batches past their timeout once a second (its completionTimeoutCheckerInterval). */
    private static final long CAMEL_TIMEOUT_CHECK_MS = 1_000;
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
                                + RetrySettings.MAX_ATTEMPTS + "). More than twice " + AGGREGATION_TIMEOUT
                                + ", plus 1 s, plus twice the URL's connectionTimeout + socketTimeout.");
    }

    /**
     * What the definitions cannot see alone, by key; empty when all is well. A record waits in Camel's aggregator
     * at most twice camel.aggregation.timeout and one timeout check ({@link BulkIndexAggregation} closes a batch
     * once its first record has waited the timeout, Camel after that long without a new record), then for a free
     * request ({@link AsyncBulkProducer}: connect + socket timeout at most) and for its answer (as long again): a
     * shorter outcome timeout would send records again that are on their way.
     */
    static Map<String, String> problems(Map<String, String> config) {
        Map<String, String> problems = new LinkedHashMap<>();
        long connect = requestTimeout(
                config, "connectionTimeout", ElasticsearchConstants.DEFAULT_CONNECTION_TIMEOUT, problems);
        long socket = requestTimeout(config, "socketTimeout", ElasticsearchConstants.DEFAULT_SOCKET_TIMEOUT, problems);
        long aggregation;
        long outcome;
        try {
            aggregation = Long.parseLong(config.getOrDefault(
                            AGGREGATION_TIMEOUT,
                            String.valueOf(CamelConnectorConfig.CAMEL_CONNECTOR_AGGREGATE_TIMEOUT_DEFAULT))
                    .trim());
            outcome = outcomeTimeout(config).toMillis();
        } catch (NumberFormatException | ConfigException e) {
            // a value that is no number is said by the definitions, on its key
            return problems;
        }
        if (aggregation <= 0) {
            problems.put(
                    AGGREGATION_TIMEOUT,
                    "must be more than 0 ms (how long a batch's first record may wait for more), got " + aggregation);
        }
        long least = 2 * aggregation + CAMEL_TIMEOUT_CHECK_MS + 2 * (connect + socket);
        if (problems.isEmpty() && outcome <= least) {
            problems.put(
                    OUTCOME_TIMEOUT_MS,
                    "must be more than " + least + " ms, got " + outcome + ": a record may wait twice "
                            + AGGREGATION_TIMEOUT + " (" + aggregation + " ms) and 1 s in Camel's aggregator, then "
                            + "connectionTimeout + socketTimeout (" + (connect + socket) + " ms) for a free request "
                            + "and as long again for its answer; raise it, or lower those");
        }
        return problems;
    }

    /** The endpoint's connect or socket timeout in ms, Camel's default when unset; a problem when it is no positive number. */
    private static long requestTimeout(
            Map<String, String> config, String name, int camelDefault, Map<String, String> problems) {
        String value = SinkOperation.parameter(config, name).orElse(String.valueOf(camelDefault));
        try {
            long millis = Long.parseLong(value);
            if (millis > 0) {
                return millis;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        problems.merge(
                SinkOperation.keyOf(config, name),
                name + " must be a number of milliseconds above 0 (a request without a timeout could stay in flight "
                        + "forever), got " + value,
                (first, second) -> first + "; " + second);
        return camelDefault;
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
