package io.kcscale.scaler.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SinkWritesTest {

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource({
        "io.confluent.connect.elasticsearch.ElasticsearchSinkConnector, , BEHIND_PUT",
        "io.kcscale.connectors.camel.SafeCommitSinkConnector, , IN_PUT",
        "io.kcscale.connectors.camel.SafeCommitSinkConnector, camel.aggregation.size, BEHIND_PUT",
        "io.kcscale.connectors.camel.SafeCommitSinkConnector, camel.beans.aggregate, BEHIND_PUT",
        "org.apache.camel.kafkaconnector.elasticsearchrest.CamelElasticsearchrestSinkConnector, , IN_PUT",
        "com.example.OtherSink, camel.aggregation.size, UNKNOWN",
        ", , UNKNOWN",
    })
    void readFromTheConnectorsConfig(String connectorClass, String extraKey, SinkWrites expected) {
        Map<String, String> config = new java.util.HashMap<>();
        if (connectorClass != null) {
            config.put("connector.class", connectorClass);
        }
        if (extraKey != null) {
            config.put(extraKey, "1000");
        }
        assertEquals(expected, SinkWrites.of(config));
    }
}
