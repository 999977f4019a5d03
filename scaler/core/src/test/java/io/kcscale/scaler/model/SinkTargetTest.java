package io.kcscale.scaler.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import org.junit.jupiter.api.Test;

class SinkTargetTest {

    private static final Set<String> KAFKA_TOPICS = Set.of("orders-eu", "orders-us", "orders", "payments", "orders-eu-dlq");

    @Test
    void aTopicsRegexSinkReadsTheTopicsItMatchesWholeSortedByName() {
        assertEquals(List.of("orders-eu", "orders-us"), SinkTarget.topics(Map.of("topics.regex", "orders-(eu|us)"), KAFKA_TOPICS));
        assertEquals(List.of("orders-eu", "orders-eu-dlq"), SinkTarget.topics(Map.of("topics.regex", "orders-eu.*"), KAFKA_TOPICS));
        assertEquals(List.of(), SinkTarget.topics(Map.of("topics.regex", "nothing.*"), KAFKA_TOPICS));
        assertEquals(List.of(), SinkTarget.topics(Map.of("topics.regex", "("), KAFKA_TOPICS), "an invalid regex matches nothing");
        assertEquals(List.of("payments"), SinkTarget.topics(Map.of("topics", " payments "), KAFKA_TOPICS), "a list is taken as it is");
    }

    @Test
    void onlyAnElasticsearchSinkHasAnIndexWithoutNamingOne() {
        assertEquals(Optional.of("stocks"), SinkTarget.index(Map.of("topics", "stocks",
                "connector.class", "io.confluent.connect.elasticsearch.ElasticsearchSinkConnector")));
        assertEquals(Optional.of("idx"), SinkTarget.index(Map.of("topics", "stocks", "connector.class", "X",
                "camel.sink.url", "elasticsearch-rest://local?hostAddresses=h:9200&indexName=idx")));
        assertEquals(Optional.empty(), SinkTarget.index(Map.of("topics", "stocks",
                "connector.class", "org.apache.kafka.connect.file.FileStreamSinkConnector", "file", "/tmp/out")));
    }

    @Test
    void anIndexNamedForAConnectorWinsOverItsConfig() {
        SinkIndexes named = SinkIndexes.of(Map.of("file-sink", "mirror", "es-sink", "other"));
        assertEquals(Optional.of("mirror"), named.of("file-sink", Map.of("connector.class", "FileStreamSinkConnector")));
        assertEquals(Optional.of("other"), named.of("es-sink", Map.of("camel.sink.endpoint.indexName", "idx")));
        assertEquals(Optional.of("idx"), named.of("third", Map.of("camel.sink.endpoint.indexName", "idx")));
        assertEquals(Optional.empty(), named.of("fourth", Map.of("connector.class", "FileStreamSinkConnector")));
    }

    @Test
    void aNamedIndexThatElasticsearchWouldRefuseIsOneLineNamingTheConnector() {
        for (String bad : new String[] {"", "Upper", "a/b", "a b", "-x", "_x", "..", "a:b", "x".repeat(256)}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SinkIndexes.of(Map.of("sink", bad)), bad);
            assertTrue(e.getMessage().startsWith("--index sink=" + bad + ": the index name "), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> SinkIndexes.of(Map.of(" ", "idx")));
    }
}
