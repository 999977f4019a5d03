package io.kcscale.scaler.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SinkTargetTest {

    private static final Set<String> KAFKA_TOPICS =
            Set.of("orders-eu", "orders-us", "orders", "payments", "orders-eu-dlq");

    @Test
    void aTopicsRegexSinkReadsTheTopicsItMatchesWholeSortedByName() {
        assertEquals(
                List.of("orders-eu", "orders-us"),
                SinkTarget.topics(Map.of("topics.regex", "orders-(eu|us)"), KAFKA_TOPICS));
        assertEquals(
                List.of("orders-eu", "orders-eu-dlq"),
                SinkTarget.topics(Map.of("topics.regex", "orders-eu.*"), KAFKA_TOPICS));
        assertEquals(List.of(), SinkTarget.topics(Map.of("topics.regex", "nothing.*"), KAFKA_TOPICS));
        assertEquals(
                List.of(),
                SinkTarget.topics(Map.of("topics.regex", "("), KAFKA_TOPICS),
                "an invalid regex matches nothing");
        assertEquals(
                List.of("payments"),
                SinkTarget.topics(Map.of("topics", " payments "), KAFKA_TOPICS),
                "a list is taken as it is");
    }

    private static final String CONFLUENT = "io.confluent.connect.elasticsearch.ElasticsearchSinkConnector";
    private static final String AIVEN = "io.aiven.kafka.connect.opensearch.OpensearchSinkConnector";

    @Test
    void aCamelSinkWritesTheOneIndexItNamesWhateverItsTopics() {
        List<String> topics = List.of("a", "b");
        assertEquals(
                List.of("idx"),
                SinkTarget.indexes(
                        Map.of(
                                "connector.class",
                                "X",
                                "camel.sink.url",
                                "elasticsearch-rest://local?hostAddresses=h:9200&indexName=idx"),
                        topics));
        assertEquals(
                List.of("stocks"), SinkTarget.indexes(Map.of("camel.sink.endpoint.indexName", " stocks "), topics));
        assertEquals(
                List.of("bulk"),
                SinkTarget.indexes(
                        Map.of("camel.beans.aggregate.indexName", "bulk", "camel.sink.endpoint.indexName", "stocks"),
                        topics),
                "our bulk aggregation's index wins");
    }

    @Test
    void confluentsSinkWritesEachTopicToAnIndexOfItsName() {
        assertEquals(
                List.of("orders-eu", "payments", "dot", "lead"),
                SinkTarget.indexes(
                        Map.of("connector.class", CONFLUENT), List.of("Orders-EU", "payments", ".", "_lead")),
                "lower case, no leading _ or -, no index named .");
        assertEquals(
                List.of("x".repeat(255)),
                SinkTarget.indexes(Map.of("connector.class", CONFLUENT), List.of("x".repeat(300))));
        assertEquals(
                List.of(),
                SinkTarget.indexes(Map.of("connector.class", CONFLUENT), List.of()),
                "a regex that matches nothing");
    }

    @Test
    void confluentsSinkFollowsItsTopicIndexMapThenItsDataStream() {
        Map<String, String> mapped =
                Map.of("connector.class", CONFLUENT, "topic.index.map", "orders:sales, bad-entry ,payments:money");
        assertEquals(
                List.of("sales", "money", "refunds"),
                SinkTarget.indexes(mapped, List.of("orders", "payments", "refunds")));
        assertEquals(
                List.of("sales"),
                SinkTarget.indexes(mapped, List.of("orders", "sales")),
                "two topics into one index: once");
        Map<String, String> stream =
                Map.of("connector.class", CONFLUENT, "data.stream.type", "LOGS", "data.stream.dataset", "shop");
        assertEquals(
                List.of("logs-shop-orders", "logs-shop-" + "p".repeat(100)),
                SinkTarget.indexes(stream, List.of("Orders", "p".repeat(150))));
        assertEquals(
                List.of("orders"),
                SinkTarget.indexes(
                        Map.of("connector.class", CONFLUENT, "data.stream.type", "NONE", "data.stream.dataset", "shop"),
                        List.of("orders")),
                "type NONE is no data stream");
        assertEquals(
                List.of("orders"),
                SinkTarget.indexes(Map.of("connector.class", CONFLUENT, "data.stream.type", "logs"), List.of("orders")),
                "a type without a dataset is no data stream");
    }

    @Test
    void aivensOpenSearchSinkWritesEachTopicToAnIndexOrAPrefixedDataStream() {
        assertEquals(
                List.of("orders", "a_b", "plus"),
                SinkTarget.indexes(Map.of("connector.class", AIVEN), List.of("Orders", "a:b", "+plus")));
        assertEquals(
                List.of("logs-orders"),
                SinkTarget.indexes(
                        Map.of("connector.class", AIVEN, "data.stream.enabled", "true", "data.stream.prefix", "logs"),
                        List.of("orders")));
        assertEquals(
                List.of("orders"),
                SinkTarget.indexes(Map.of("connector.class", AIVEN, "data.stream.enabled", "true"), List.of("orders")),
                "a data stream without a prefix is named as the topic");
        assertEquals(
                List.of("orders"),
                SinkTarget.indexes(Map.of("connector.class", AIVEN, "data.stream.prefix", "logs"), List.of("orders")),
                "a prefix without data.stream.enabled names no data stream");
    }

    @Test
    void anyOtherSinkNamesNoIndex() {
        assertEquals(
                List.of(),
                SinkTarget.indexes(
                        Map.of(
                                "connector.class",
                                "org.apache.kafka.connect.file.FileStreamSinkConnector",
                                "file",
                                "/tmp/out"),
                        List.of("stocks")));
    }

    @Test
    void indexesNamedForAConnectorWinOverItsConfig() {
        SinkIndexes named = SinkIndexes.of(Map.of("file-sink", "mirror", "es-sink", "other", "many", "a, b,a"));
        List<String> topics = List.of("t");
        assertEquals(
                List.of("mirror"), named.of("file-sink", Map.of("connector.class", "FileStreamSinkConnector"), topics));
        assertEquals(List.of("other"), named.of("es-sink", Map.of("camel.sink.endpoint.indexName", "idx"), topics));
        assertEquals(
                List.of("a", "b"),
                named.of("many", Map.of("connector.class", CONFLUENT), topics),
                "a comma list, once each");
        assertEquals(List.of("idx"), named.of("third", Map.of("camel.sink.endpoint.indexName", "idx"), topics));
        assertEquals(List.of("t"), named.of("fourth", Map.of("connector.class", CONFLUENT), topics));
        assertEquals(List.of(), named.of("fifth", Map.of("connector.class", "FileStreamSinkConnector"), topics));
    }

    @Test
    void aNamedIndexThatElasticsearchWouldRefuseIsOneLineNamingTheConnector() {
        for (String bad : new String[] {"", "Upper", "a/b", "a b", "-x", "_x", "..", "a:b", "x".repeat(256)}) {
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, () -> SinkIndexes.of(Map.of("sink", bad)), bad);
            assertTrue(e.getMessage().startsWith("--index sink=" + bad + ": the index name "), e.getMessage());
        }
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> SinkIndexes.of(Map.of("sink", "good,Bad")));
        assertTrue(
                e.getMessage().startsWith("--index sink=good,Bad: the index name Bad has upper-case letters"),
                e.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> SinkIndexes.of(Map.of("sink", "a,,b")),
                "an empty name in the list");
        assertThrows(IllegalArgumentException.class, () -> SinkIndexes.of(Map.of(" ", "idx")));
    }
}
