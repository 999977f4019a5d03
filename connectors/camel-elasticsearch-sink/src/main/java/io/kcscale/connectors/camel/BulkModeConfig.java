package io.kcscale.connectors.camel;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.camel.kafkaconnector.CamelConnectorConfig;

/**
 * What {@link SafeCommitSinkConnector} needs in its configuration beyond the Camel connector's own
 * keys, checked before any task starts: the Elasticsearch URL, the bulk operation, our aggregation
 * strategy with its index, and the transform that brings each record's coordinates to Camel.
 */
final class BulkModeConfig {

    /** {@code camel.beans.aggregate}: the strategy, and the prefix of its bean properties. */
    static final String STRATEGY_BEAN = CamelConnectorConfig.CAMEL_CONNECTOR_AGGREGATE_CONF;

    static final String INDEX_NAME = STRATEGY_BEAN + ".indexName";
    private static final String STRATEGY = "#class:" + BulkIndexAggregation.class.getName();

    private BulkModeConfig() {}

    /** Each key whose value is missing or wrong, with what to set it to; empty when all is well. */
    static Map<String, String> problems(Map<String, String> config) {
        Map<String, String> problems = new LinkedHashMap<>(
                SinkOperation.problems(config, "Bulk", "the aggregation strategy makes one bulk request per batch"));
        SinkOperation.schemeProblems(config, "bulk mode sends its requests through it")
                .forEach((key, problem) -> problems.merge(key, problem, (first, second) -> first + "; " + second));
        String strategy = config.get(STRATEGY_BEAN);
        if (!STRATEGY.equals(strategy == null ? null : strategy.trim())) {
            problems.put(
                    STRATEGY_BEAN,
                    "must be " + STRATEGY
                            + " (bulk mode), got " + strategy + "; for one request per record use "
                            + PerRecordSinkConnector.class.getName());
        }
        String index = config.get(INDEX_NAME);
        if (index == null || index.isBlank()) {
            problems.put(INDEX_NAME, "must name the index the documents go to");
        }
        if (!hasCoordinatesTransform(config)) {
            problems.put(
                    "transforms",
                    "must include a transform of type " + CoordinatesHeaders.class.getName()
                            + " (e.g. transforms=coordinates, transforms.coordinates.type="
                            + CoordinatesHeaders.class.getName()
                            + "): document ids are made from the coordinates it adds");
        }
        return problems;
    }

    private static boolean hasCoordinatesTransform(Map<String, String> config) {
        String aliases = config.getOrDefault("transforms", "");
        return Arrays.stream(aliases.split(","))
                .map(String::trim)
                .filter(alias -> !alias.isEmpty())
                .anyMatch(alias ->
                        CoordinatesHeaders.class.getName().equals(config.get("transforms." + alias + ".type")));
    }
}
