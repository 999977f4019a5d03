package io.kcscale.scaler.model;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The indexes each sink connector writes to: what the operator named for it ({@code --index CONNECTOR=INDEX[,INDEX...]},
 * {@code index.CONNECTOR} in the settings file), else what {@link SinkTarget#indexes} derives from its config.
 * Pure.
 */
public final class SinkIndexes {

    /** The most connectors that may be named: the map is held for the scaler's life. */
    public static final int MAX_NAMED = 1_000;

    private static final String FORBIDDEN = "\\/*?\"<>| ,#:";

    private final Map<String, String> named;

    private SinkIndexes(Map<String, String> named) {
        this.named = Map.copyOf(named);
    }

    public static SinkIndexes none() {
        return new SinkIndexes(Map.of());
    }

    /**
     * @param named index by connector name, as the operator gave them: one name, or several separated by commas
     * @throws IllegalArgumentException naming the first connector whose setting is not a valid index name
     */
    public static SinkIndexes of(Map<String, String> named) {
        if (named.size() > MAX_NAMED) {
            throw new IllegalArgumentException("--index names " + named.size() + " connectors; at most " + MAX_NAMED);
        }
        Map<String, String> checked = new TreeMap<>();
        named.forEach((connector, index) -> {
            if (connector == null || connector.isBlank()) {
                throw new IllegalArgumentException(
                        "--index needs CONNECTOR=INDEX, got a blank connector name for index " + index);
            }
            String given = index == null ? "" : index.strip();
            for (String one : given.split(",", -1)) {
                valid(connector.strip(), given, one.strip());
            }
            checked.put(connector.strip(), given);
        });
        return new SinkIndexes(checked);
    }

    /**
     * The indexes {@code connector} writes to; empty when it is not named and its config names none.
     *
     * @param topics the topics it reads
     */
    public List<String> of(String connector, Map<String, String> config, List<String> topics) {
        String index = named.get(connector);
        return index != null
                ? Arrays.stream(index.split(",")).map(String::strip).distinct().toList()
                : SinkTarget.indexes(config, topics);
    }

    public Map<String, String> named() {
        return named;
    }

    /** Elasticsearch's rules for an index name, so that a typo is refused at start rather than failing every sample. */
    private static void valid(String connector, String given, String index) {
        String problem = null;
        if (index.isEmpty()) {
            problem = "is empty";
        } else if (!index.equals(index.toLowerCase(Locale.ROOT))) {
            problem = "has upper-case letters";
        } else if (index.chars().anyMatch(c -> FORBIDDEN.indexOf(c) >= 0)) {
            problem = "has one of " + FORBIDDEN.replace(" ", "space ");
        } else if ("-_+".indexOf(index.charAt(0)) >= 0 || index.equals(".") || index.equals("..")) {
            problem = "starts with -, _ or + (or is . or ..)";
        } else if (index.getBytes(StandardCharsets.UTF_8).length > 255) {
            problem = "is longer than 255 bytes";
        }
        if (problem != null) {
            throw new IllegalArgumentException("--index " + connector + "=" + given + ": the index name "
                    + (given.equals(index) ? "" : index + " ") + problem
                    + "; give the Elasticsearch indexes the connector writes to, separated by commas");
        }
    }
}
