package io.kcscale.connectors.camel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;

class PerRecordSinkConnectorTest {

    private static Map<String, String> config(String url) {
        return new HashMap<>(Map.of("topics", "stocks", "camel.sink.url", url));
    }

    private static Map<String, List<String>> errors(Map<String, String> config) {
        return new PerRecordSinkConnector()
                .validate(config).configValues().stream()
                        .filter(v -> !v.errorMessages().isEmpty())
                        .collect(Collectors.toMap(ConfigValue::name, ConfigValue::errorMessages));
    }

    @Test
    void theIndexOperationValidatesCleanly() {
        assertEquals(
                Map.of(),
                errors(config(
                        "elasticsearch-rest://local?hostAddresses=127.0.0.1:9200&operation=Index&indexName=stocks")));
        assertEquals(PerRecordSinkTask.class, new PerRecordSinkConnector().taskClass());
    }

    @Test
    void anyOtherOperationIsRefusedNamingTheKey() {
        Map<String, List<String>> errors =
                errors(config("elasticsearch-rest://local?hostAddresses=127.0.0.1:9200&operation=Bulk"));
        assertEquals(List.of("camel.sink.url"), List.copyOf(errors.keySet()));
        assertTrue(
                errors.get("camel.sink.url").get(0).startsWith("camel.sink.url must ask for operation=Index"),
                errors.toString());
    }

    @Test
    void theUrlMustBeElasticsearchsAndNameTheIndex() {
        assertEquals(
                Map.of(
                        "camel.sink.url",
                        List.of("camel.sink.url must name the index the documents go to (indexName=...)")),
                errors(config("elasticsearch-rest://local?hostAddresses=127.0.0.1:9200&operation=Index")));
        assertTrue(
                errors(config("file://out?operation=Index&indexName=stocks"))
                        .get("camel.sink.url")
                        .get(0)
                        .startsWith(
                                "camel.sink.url must be an elasticsearch-rest:// URL (per-record mode sends its requests through it)"));
        Map<String, String> byProperty =
                config("elasticsearch-rest://local?hostAddresses=127.0.0.1:9200&operation=Index");
        byProperty.put("camel.sink.endpoint.indexName", "stocks");
        assertEquals(Map.of(), errors(byProperty));
    }

    @Test
    void malformedRecordsToTheDeadLetterTopicNeedOne() {
        Map<String, String> config =
                config("elasticsearch-rest://local?hostAddresses=127.0.0.1:9200&operation=Index&indexName=stocks");
        config.put("kcscale.malformed.records", "dlq");
        assertEquals(
                List.of("kcscale.malformed.records"), List.copyOf(errors(config).keySet()));
    }

    @Test
    void theRetrySettingsAreCheckedToo() {
        Map<String, String> config =
                config("elasticsearch-rest://local?hostAddresses=127.0.0.1:9200&operation=Index&indexName=stocks");
        config.put("kcscale.retry.backoff.initial.ms", "2000");
        config.put("kcscale.retry.backoff.max.ms", "1000");
        assertEquals(
                List.of("kcscale.retry.backoff.max.ms"),
                List.copyOf(errors(config).keySet()));
    }
}
