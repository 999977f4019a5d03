package io.kcscale.connectors.datagen;

import static io.kcscale.connectors.datagen.TaskHarness.props;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.vocabulary.Arrivals;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class DatagenConfigTest {

    private static Map<String, String> stockTrades(String... more) {
        Map<String, String> props = props("kafka.topic", "trades", "quickstart", "stock_trades");
        props.putAll(props(more));
        return props;
    }

    /** A bad config, the key the error must be reported on, and text its message must contain. */
    static Stream<Arguments> badConfigs() {
        return Stream.of(
                Arguments.of(
                        stockTrades("quickstart", "pageviewz"),
                        "quickstart",
                        List.of("pageviewz", "[stock_trades, users]")),
                Arguments.of(
                        stockTrades("schema.string", "{\"type\":\"record\",\"name\":\"R\",\"fields\":[]}"),
                        "quickstart",
                        List.of("exactly one of quickstart and schema.string")),
                Arguments.of(
                        props("kafka.topic", "t"), "quickstart", List.of("exactly one of quickstart", "schema.string")),
                Arguments.of(
                        stockTrades("schema.keyfield", "ticker"),
                        "schema.keyfield",
                        List.of("ticker", "[side, quantity, symbol, price, account, userid]")),
                Arguments.of(stockTrades("rate.per.task", "0"), "rate.per.task", List.of("0", "> 0")),
                Arguments.of(stockTrades("rate.per.task", "-5"), "rate.per.task", List.of("-5", "> 0")),
                Arguments.of(
                        stockTrades("arrivals", "weird"), "arrivals", List.of("weird", "steady", "poisson", "bursts")),
                Arguments.of(
                        stockTrades("arrivals", "constant"),
                        "arrivals",
                        List.of("constant", "steady, poisson, bursts")),
                Arguments.of(
                        stockTrades("arrivals", "poisson"),
                        "rate.per.task",
                        List.of("arrivals=poisson needs rate.per.task")),
                Arguments.of(
                        stockTrades("arrivals", "bursts", "rate.per.task", "10"),
                        "burst.rate",
                        List.of("arrivals=bursts needs burst.rate")),
                Arguments.of(
                        stockTrades(
                                "arrivals",
                                "bursts",
                                "rate.per.task",
                                "10",
                                "burst.rate",
                                "100",
                                "burst.seconds",
                                "10",
                                "burst.period.seconds",
                                "10"),
                        "burst.seconds",
                        List.of("10.0", "less than burst.period.seconds")),
                Arguments.of(stockTrades("key.cardinality", "0"), "key.cardinality", List.of("0", "at least 1")),
                Arguments.of(stockTrades("key.skew", "1.2"), "key.skew", List.of("1.2", "needs key.cardinality")),
                Arguments.of(
                        stockTrades("key.skew", "-1", "key.cardinality", "5"), "key.skew", List.of("-1", "at least 0")),
                Arguments.of(stockTrades("max.interval", "-1"), "max.interval", List.of("-1", "at least 0")),
                Arguments.of(props("kafka.topic", "", "quickstart", "users"), "kafka.topic", List.of("empty")),
                Arguments.of(
                        props("kafka.topic", "t", "schema.string", "{not json"),
                        "schema.string",
                        List.of("{not json", "Avro record schema")),
                Arguments.of(
                        props("kafka.topic", "t", "schema.string", "\"string\""),
                        "schema.string",
                        List.of("must be a record")),
                Arguments.of(
                        props(
                                "kafka.topic",
                                "t",
                                "schema.string",
                                "{\"type\":\"record\",\"name\":\"R\","
                                        + "\"fields\":[{\"name\":\"u\",\"type\":[\"int\",\"string\"]}]}"),
                        "schema.string",
                        List.of("only a union of null and one other type")),
                Arguments.of(
                        props(
                                "kafka.topic",
                                "t",
                                "schema.string",
                                "{\"type\":\"record\",\"name\":\"R\","
                                        + "\"fields\":[{\"name\":\"produced_at_ms\",\"type\":\"long\"}]}"),
                        "schema.string",
                        List.of("reserved")),
                Arguments.of(
                        props(
                                "kafka.topic",
                                "t",
                                "schema.string",
                                "{\"type\":\"record\",\"name\":\"R\","
                                        + "\"fields\":[{\"name\":\"n\",\"type\":{\"type\":\"int\",\"arg.properties\":"
                                        + "{\"range\":{\"min\":\"low\"}}}}]}"),
                        "schema.string",
                        List.of("arg.properties")));
    }

    @ParameterizedTest
    @MethodSource("badConfigs")
    void aBadConfigIsRejectedNamingKeyValueAndWhatIsAllowed(
            Map<String, String> props, String key, List<String> expected) {
        ConfigException error = assertThrows(ConfigException.class, () -> new DatagenConfig(props));

        assertTrue(error.getMessage().contains(key), error.getMessage());
        for (String text : expected) {
            assertTrue(error.getMessage().contains(text), error.getMessage() + " lacks " + text);
        }
    }

    @ParameterizedTest
    @MethodSource("badConfigs")
    void theConnectorReportsTheErrorOnThatKeyWhenValidating(Map<String, String> props, String key) {
        List<ConfigValue> values = new DatagenConnector().validate(props).configValues();

        List<String> keysWithErrors = values.stream()
                .filter(value -> !value.errorMessages().isEmpty())
                .map(ConfigValue::name)
                .collect(Collectors.toList());
        assertEquals(List.of(key), keysWithErrors);
    }

    @Test
    void aGoodConfigValidatesCleanlyWithDatagenDefaults() {
        DatagenConfig config = new DatagenConfig(stockTrades());

        assertTrue(new DatagenConnector()
                .validate(stockTrades()).configValues().stream()
                        .allMatch(value -> value.errorMessages().isEmpty()));
        assertEquals("trades", config.topic());
        assertEquals("side", config.keyField());
        assertEquals(500L, config.maxIntervalMs());
        assertEquals(Long.MAX_VALUE, config.iterationLimit());
        assertFalse(config.randomSeed().isPresent());
        assertFalse(config.ratePerTask().isPresent());
        assertEquals(Arrivals.STEADY, config.arrivals());
        assertFalse(config.keyCardinality().isPresent());
        assertEquals(0.0, config.keySkew());
    }

    @Test
    void anInlineSchemaWithArgPropertiesIsAccepted() {
        DatagenConfig config = new DatagenConfig(
                props(
                        "kafka.topic",
                        "t",
                        "schema.keyfield",
                        "id",
                        "schema.string",
                        "{\"type\":\"record\",\"name\":\"R\",\"fields\":[{\"name\":\"name\",\"type\":\"string\"},"
                                + "{\"name\":\"id\",\"type\":{\"type\":\"int\",\"arg.properties\":{\"range\":{\"min\":0,\"max\":9}}}}]}"));

        assertEquals("id", config.keyField());
        assertEquals(2, config.valueSchema().getFields().size());
    }
}
