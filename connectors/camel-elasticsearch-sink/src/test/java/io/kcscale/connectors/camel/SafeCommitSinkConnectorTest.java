package io.kcscale.connectors.camel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.ConfigValue;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.Test;

class SafeCommitSinkConnectorTest {

    private static Map<String, String> bulkConfig() {
        Map<String, String> config = new HashMap<>(Map.of(
                "topics", "stocks",
                "camel.sink.url", "elasticsearch-rest://local?hostAddresses=127.0.0.1:9200&operation=Bulk",
                "camel.beans.aggregate", "#class:io.kcscale.connectors.camel.BulkIndexAggregation",
                "camel.beans.aggregate.indexName", "stocks",
                "transforms", "first, coordinates",
                "transforms.first.type", "org.apache.kafka.connect.transforms.InsertField$Value",
                "transforms.coordinates.type", "io.kcscale.connectors.camel.CoordinatesHeaders"));
        return config;
    }

    private static Map<String, List<String>> errors(Map<String, String> config) {
        return new SafeCommitSinkConnector()
                .validate(config).configValues().stream()
                        .filter(v -> !v.errorMessages().isEmpty())
                        .collect(Collectors.toMap(ConfigValue::name, ConfigValue::errorMessages));
    }

    @Test
    void aCompleteBulkConfigurationValidatesCleanly() {
        assertEquals(Map.of(), errors(bulkConfig()));
        assertEquals(SafeCommitSinkTask.class, new SafeCommitSinkConnector().taskClass());
    }

    @Test
    void eachMissingPieceIsNamedOnItsKey() {
        Map<String, String> config = bulkConfig();
        config.put("camel.beans.aggregate", "#class:org.apache.camel.kafkaconnector.aggregator.StringAggregator");
        config.remove("camel.beans.aggregate.indexName");
        config.put("transforms", "first");

        Map<String, List<String>> errors = errors(config);

        assertEquals(
                List.of("camel.beans.aggregate", "camel.beans.aggregate.indexName", "transforms"),
                errors.keySet().stream().sorted().toList());
        assertTrue(
                errors.get("camel.beans.aggregate")
                        .get(0)
                        .startsWith(
                                "camel.beans.aggregate must be "
                                        + "#class:io.kcscale.connectors.camel.BulkIndexAggregation (bulk mode), got #class:org.apache.camel"),
                errors.toString());
        assertEquals(
                List.of("camel.beans.aggregate.indexName must name the index the documents go to"),
                errors.get("camel.beans.aggregate.indexName"));
        assertTrue(
                errors.get("transforms")
                        .get(0)
                        .contains("transforms.coordinates.type=io.kcscale.connectors.camel.CoordinatesHeaders"),
                errors.toString());
    }

    @Test
    void theBulkOperationIsRequiredInTheUrlOrAsAnEndpointProperty() {
        Map<String, String> config = bulkConfig();
        config.put("camel.sink.url", "elasticsearch-rest://local?hostAddresses=127.0.0.1:9200");
        assertEquals(
                Map.of(
                        "camel.sink.url",
                        List.of("camel.sink.url must ask for operation=Bulk (the aggregation strategy "
                                + "makes one bulk request per batch), got no operation")),
                errors(config));

        config.put("camel.sink.endpoint.operation", "Index");
        assertEquals(
                List.of("camel.sink.endpoint.operation"),
                List.copyOf(errors(config).keySet()));

        config.put("camel.sink.endpoint.operation", "bulk");
        assertEquals(Map.of(), errors(config));
    }

    @Test
    void malformedRecordsToTheDeadLetterTopicNeedOne() {
        Map<String, String> config = bulkConfig();
        config.put("kcscale.malformed.records", "dlq");
        assertEquals(
                Map.of(
                        "kcscale.malformed.records",
                        List.of("kcscale.malformed.records dlq needs a dead-letter topic: "
                                + "set errors.tolerance=all and errors.deadletterqueue.topic.name")),
                errors(config));

        config.put("errors.deadletterqueue.topic.name", "stocks-dlq");
        assertEquals(
                Map.of(
                        "kcscale.malformed.records",
                        List.of("kcscale.malformed.records dlq needs a dead-letter topic: "
                                + "set errors.tolerance=all and errors.deadletterqueue.topic.name")),
                errors(config),
                "without errors.tolerance=all Connect fails the task after each dead-letter write, and the restart writes it again");

        config.put("errors.tolerance", "all");
        assertEquals(Map.of(), errors(config));
    }

    @Test
    void anUnknownMalformedRecordsChoiceIsRefusedOnce() {
        Map<String, String> config = bulkConfig();
        config.put("kcscale.malformed.records", "skip");

        List<String> said = errors(config).get("kcscale.malformed.records");
        assertEquals(1, said.size(), said.toString());
        assertTrue(
                said.get(0).startsWith("Invalid value skip for configuration kcscale.malformed.records"),
                said.toString());
    }

    @Test
    void startingWithABadConfigurationFailsNamingEveryProblem() {
        Map<String, String> config = bulkConfig();
        config.remove("transforms");
        config.remove("camel.beans.aggregate.indexName");

        ConnectException e = assertThrows(ConnectException.class, () -> new SafeCommitSinkConnector().start(config));
        assertTrue(
                e.getMessage()
                        .startsWith("invalid bulk-mode configuration: camel.beans.aggregate.indexName must name "
                                + "the index the documents go to; transforms must include"),
                e.getMessage());
    }

    @Test
    void theRetrySettingsAreCheckedOnTheirKeys() {
        Map<String, List<String>> errors =
                errorsWith(Map.of("kcscale.retry.max.attempts", "0", "kcscale.retry.backoff.initial.ms", "soon"));
        assertEquals(
                List.of("kcscale.retry.backoff.initial.ms", "kcscale.retry.max.attempts"),
                errors.keySet().stream().sorted().toList());
        assertRefusedOnItsKey(errors, "kcscale.retry.max.attempts", "0", "Value must be at least 1");

        Map<String, String> config = bulkConfig();
        config.put("kcscale.retry.backoff.initial.ms", "2000");
        config.put("kcscale.retry.backoff.max.ms", "1000");
        assertEquals(
                Map.of(
                        "kcscale.retry.backoff.max.ms",
                        List.of("kcscale.retry.backoff.max.ms must be at least "
                                + "kcscale.retry.backoff.initial.ms (2000), got 1000")),
                errors(config));

        config.put("kcscale.retry.backoff.max.ms", "120000");
        assertEquals(
                List.of("kcscale.retry.backoff.max.ms"),
                List.copyOf(errors(config).keySet()),
                "put() may not wait that long");
    }

    @Test
    void theRequestsInFlightAreCheckedOnTheirKey() {
        Map<String, String> config = bulkConfig();
        config.put("kcscale.bulk.max.in.flight.requests", "0");
        assertRefusedOnItsKey(errors(config), "kcscale.bulk.max.in.flight.requests", "0", "Value must be at least 1");

        config.put("kcscale.bulk.max.in.flight.requests", "4");
        assertEquals(Map.of(), errors(config));
    }

    @Test
    void theByteBoundAndTheOutcomeTimeoutAreCheckedOnTheirKeys() {
        Map<String, List<String>> errors =
                errorsWith(Map.of("kcscale.bulk.max.bytes", "104857600", "kcscale.bulk.outcome.timeout.ms", "10"));
        assertRefusedOnItsKey(errors, "kcscale.bulk.max.bytes", "104857600", "Value must be no more than 52428800");
        assertRefusedOnItsKey(errors, "kcscale.bulk.outcome.timeout.ms", "10", "Value must be at least 1000");

        assertEquals(
                Map.of(),
                errorsWith(Map.of("kcscale.bulk.max.bytes", "5242880", "kcscale.bulk.outcome.timeout.ms", "150000")));
    }

    /**
     * A record waits in Camel's aggregator up to twice camel.aggregation.timeout and Camel's one-second check, then
     * for a free request and for its answer, each up to the URL's connect + socket timeouts (30 s each by default):
     * an outcome timeout shorter than that sends again records that are on their way.
     */
    @Test
    void theOutcomeTimeoutMustOutlastTheAggregatorAFreeRequestAndTheAnswer() {
        // 2 x 500 ms + 1 s + 2 x (30 s + 30 s)
        assertEquals(Map.of(), errorsWith(Map.of("kcscale.bulk.outcome.timeout.ms", "122001")));
        assertEquals(
                Map.of(
                        "kcscale.bulk.outcome.timeout.ms",
                        List.of("kcscale.bulk.outcome.timeout.ms must be more than 122000 ms, got 122000: a record may "
                                + "wait twice camel.aggregation.timeout (500 ms) and 1 s in Camel's aggregator, then "
                                + "connectionTimeout + socketTimeout (60000 ms) for a free request and as long again for "
                                + "its answer; raise it, or lower those")),
                errorsWith(Map.of("kcscale.bulk.outcome.timeout.ms", "122000")));

        assertEquals(
                List.of("kcscale.bulk.outcome.timeout.ms"),
                List.copyOf(
                        errorsWith(Map.of("camel.aggregation.timeout", "30000")).keySet()),
                "the default, 180 s, is less than 2 x 30 s + 1 s + 120 s");
        Map<String, String> slowSocket = bulkConfig();
        slowSocket.put("camel.sink.url", slowSocket.get("camel.sink.url") + "&socketTimeout=90000");
        assertEquals(
                List.of("kcscale.bulk.outcome.timeout.ms"),
                List.copyOf(errors(slowSocket).keySet()));
        assertEquals(
                List.of("kcscale.bulk.outcome.timeout.ms"),
                List.copyOf(errorsWith(Map.of("camel.sink.endpoint.connectionTimeout", "60000"))
                        .keySet()),
                "an endpoint property counts as the URL's parameter does");
    }

    @Test
    void aRequestOrABatchWithoutATimeoutIsRefusedOnItsKey() {
        Map<String, String> noSocketTimeout = bulkConfig();
        noSocketTimeout.put("camel.sink.url", noSocketTimeout.get("camel.sink.url") + "&socketTimeout=0");
        assertEquals(
                Map.of(
                        "camel.sink.url",
                        List.of("camel.sink.url socketTimeout must be a number of milliseconds above 0 (a request "
                                + "without a timeout could stay in flight forever), got 0")),
                errors(noSocketTimeout));
        assertEquals(
                List.of("camel.sink.endpoint.connectionTimeout"),
                List.copyOf(errorsWith(Map.of("camel.sink.endpoint.connectionTimeout", "soon"))
                        .keySet()));
        assertEquals(
                Map.of(
                        "camel.aggregation.timeout",
                        List.of("camel.aggregation.timeout must be more than 0 ms (how long a batch's first record may "
                                + "wait for more), got 0")),
                errorsWith(Map.of("camel.aggregation.timeout", "0")));
    }

    @Test
    void startingWithAnOutcomeTimeoutTooShortFailsSayingWhatToChange() {
        Map<String, String> config = bulkConfig();
        config.put("kcscale.bulk.outcome.timeout.ms", "60000");

        ConnectException e = assertThrows(ConnectException.class, () -> new SafeCommitSinkConnector().start(config));
        assertTrue(
                e.getMessage()
                        .startsWith(
                                "invalid bulk-mode configuration: kcscale.bulk.outcome.timeout.ms must be more than "
                                        + "122000 ms, got 60000"),
                e.getMessage());
    }

    private static Map<String, List<String>> errorsWith(Map<String, String> changes) {
        Map<String, String> config = bulkConfig();
        config.putAll(changes);
        return errors(config);
    }

    /** ConfigDef's own words for a value out of range, on the key that holds it. */
    private static void assertRefusedOnItsKey(Map<String, List<String>> errors, String key, String value, String why) {
        List<String> said = errors.getOrDefault(key, List.of());
        assertTrue(
                !said.isEmpty()
                        && said.get(0).startsWith("Invalid value " + value + " for configuration " + key + ": " + why),
                errors.toString());
    }

    @Test
    void theSinkUrlMustBeElasticsearchRest() {
        Map<String, String> config = bulkConfig();
        config.put("camel.sink.url", "log://local?operation=Bulk");
        assertEquals(
                Map.of(
                        "camel.sink.url",
                        List.of("camel.sink.url must be an elasticsearch-rest:// URL (bulk mode sends its "
                                + "requests through it), got log://local?operation=Bulk")),
                errors(config));
    }
}
