package io.kcscale.connectors.camel;

import java.util.Map;
import java.util.Optional;

/**
 * What a Camel sink configuration asks of Elasticsearch: the operation ({@code operation=} in the query of
 * {@code camel.sink.url}, or {@code camel.sink.endpoint.operation}), the index and the URL's scheme. Each
 * of our connectors works with one operation only; the wrong one is accepted by Camel and fails on every
 * request.
 */
final class SinkOperation {

    static final String URL = "camel.sink.url";
    private static final String ENDPOINT_PREFIX = "camel.sink.endpoint.";
    /** The stock component's scheme, which both modes' URLs name. */
    static final String STOCK_SCHEME = "elasticsearch-rest";

    private SinkOperation() {}

    /** The key and its problem when {@code config} does not ask for {@code expected}; empty when it does. */
    static Map<String, String> problems(Map<String, String> config, String expected, String why) {
        String key = keyOf(config, "operation");
        Optional<String> operation = parameter(config, "operation");
        if (operation.isPresent() && operation.get().equalsIgnoreCase(expected)) {
            return Map.of();
        }
        return Map.of(
                key,
                "must ask for operation=" + expected + " (" + why + "), got "
                        + operation.map(o -> "operation=" + o).orElse("no operation"));
    }

    /** The URL's problem when it is no {@value #STOCK_SCHEME} URL ({@code why}: what the mode does with it); empty when it is. */
    static Map<String, String> schemeProblems(Map<String, String> config, String why) {
        String url = config.get(URL);
        if (url != null && url.trim().startsWith(STOCK_SCHEME + ":")) {
            return Map.of();
        }
        return Map.of(URL, "must be an " + STOCK_SCHEME + ":// URL (" + why + "), got " + url);
    }

    /** {@code url}, an {@value #STOCK_SCHEME} URL, sent through the component bound as {@code scheme} instead. */
    static String sentThrough(String url, String scheme) {
        String trimmed = url == null ? "" : url.trim();
        if (!trimmed.startsWith(STOCK_SCHEME + ":")) {
            throw new IllegalArgumentException(URL + " must be an " + STOCK_SCHEME + ":// URL, got " + url);
        }
        return scheme + trimmed.substring(STOCK_SCHEME.length());
    }

    /** The URL's problem when neither it nor {@code camel.sink.endpoint.indexName} names the index; empty when one does. */
    static Map<String, String> indexProblems(Map<String, String> config) {
        String key = keyOf(config, "indexName");
        return parameter(config, "indexName").filter(index -> !index.isEmpty()).isPresent()
                ? Map.of()
                : Map.of(key, "must name the index the documents go to (indexName=...)");
    }

    /** The key that holds endpoint parameter {@code name}: {@code camel.sink.endpoint.NAME} when set, else the URL. */
    static String keyOf(Map<String, String> config, String name) {
        return config.containsKey(ENDPOINT_PREFIX + name) ? ENDPOINT_PREFIX + name : URL;
    }

    /** An endpoint parameter: {@code camel.sink.endpoint.NAME}, else {@code NAME=} in the query of the URL. */
    static Optional<String> parameter(Map<String, String> config, String name) {
        String property = config.get(ENDPOINT_PREFIX + name);
        if (property != null) {
            return Optional.of(property.trim());
        }
        String url = config.getOrDefault(URL, "");
        int query = url.indexOf('?');
        if (query < 0) {
            return Optional.empty();
        }
        for (String parameter : url.substring(query + 1).split("&")) {
            if (parameter.startsWith(name + "=")) {
                return Optional.of(parameter.substring(name.length() + 1).trim());
            }
        }
        return Optional.empty();
    }
}
