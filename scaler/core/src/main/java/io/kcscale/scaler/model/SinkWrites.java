package io.kcscale.scaler.model;

import java.util.Map;

/**
 * Whether a sink task's {@code put()} returns once its records are written, which is what makes the share of its time
 * in {@code put()} its busy time. Read from the connector's config. Pure.
 */
public enum SinkWrites {
    /** {@code put()} writes and waits for the answer: its time in {@code put()} is its busy time. */
    IN_PUT,
    /**
     * {@code put()} hands the records to a writer of the task's own, which sends batches beside it (requests in
     * flight while the task polls again): its time in {@code put()}, and its consumer's idle time, say nothing of how
     * near its limit it runs.
     */
    BEHIND_PUT,
    /** A connector this table does not know: its {@code put()} time is read as its busy time. */
    UNKNOWN;

    /**
     * Confluent's Elasticsearch sink buffers up to {@code max.buffered.records} and sends up to
     * {@code max.in.flight.requests} batches "before blocking" (kafka-connect-elasticsearch,
     * docs/configuration_options.rst). A Camel sink writes in {@code put()} unless its route aggregates the records
     * into batches ({@code camel.aggregation.size} or an aggregation bean), as this project's bulk mode does.
     */
    public static SinkWrites of(Map<String, String> config) {
        String connectorClass = config.getOrDefault("connector.class", "");
        if (connectorClass.equals("io.confluent.connect.elasticsearch.ElasticsearchSinkConnector")) {
            return BEHIND_PUT;
        }
        if (connectorClass.startsWith("io.kcscale.connectors.camel.")
                || connectorClass.startsWith("org.apache.camel.kafkaconnector.")) {
            return config.containsKey("camel.aggregation.size") || config.containsKey("camel.beans.aggregate")
                    ? BEHIND_PUT
                    : IN_PUT;
        }
        return UNKNOWN;
    }
}
