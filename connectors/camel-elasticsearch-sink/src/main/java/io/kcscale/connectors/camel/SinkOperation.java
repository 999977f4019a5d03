package io.kcscale.connectors.camel;

import java.util.Map;
import java.util.Optional;

/**
 * The Elasticsearch operation a Camel sink configuration asks for: {@code operation=} in the query of
 * {@code camel.sink.url}, or {@code camel.sink.endpoint.operation}. Each of our connectors works with
 * one operation only; the wrong one is accepted by Camel and fails on every request.
 */
final class SinkOperation {

    static final String URL = "camel.sink.url";
    static final String ENDPOINT_PROPERTY = "camel.sink.endpoint.operation";

    private SinkOperation() {
    }

    /** The key and its problem when {@code config} does not ask for {@code expected}; empty when it does. */
    static Map<String, String> problems(Map<String, String> config, String expected, String why) {
        String key = config.containsKey(ENDPOINT_PROPERTY) ? ENDPOINT_PROPERTY : URL;
        Optional<String> operation = operation(config);
        if (operation.isPresent() && operation.get().equalsIgnoreCase(expected)) {
            return Map.of();
        }
        return Map.of(key, "must ask for operation=" + expected + " (" + why + "), got "
                + operation.map(o -> "operation=" + o).orElse("no operation"));
    }

    private static Optional<String> operation(Map<String, String> config) {
        String property = config.get(ENDPOINT_PROPERTY);
        if (property != null) {
            return Optional.of(property.trim());
        }
        String url = config.getOrDefault(URL, "");
        int query = url.indexOf('?');
        if (query < 0) {
            return Optional.empty();
        }
        for (String parameter : url.substring(query + 1).split("&")) {
            if (parameter.startsWith("operation=")) {
                return Optional.of(parameter.substring("operation=".length()).trim());
            }
        }
        return Optional.empty();
    }
}
