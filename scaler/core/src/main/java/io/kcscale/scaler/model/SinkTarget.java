package io.kcscale.scaler.model;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** What a sink connector's configuration says about where it reads and writes. Pure. */
public final class SinkTarget {

    private static final Pattern CAMEL_INDEX = Pattern.compile("[?&]indexName=([^&]+)");
    private static final Pattern TASK_SUFFIX = Pattern.compile("-(\\d+)$");

    private SinkTarget() {
    }

    /** The topics of {@code topics} (a comma-separated list); empty for a {@code topics.regex} sink. */
    public static List<String> topics(Map<String, String> config) {
        String topics = config.getOrDefault("topics", "");
        return Arrays.stream(topics.split(",")).map(String::trim).filter(t -> !t.isEmpty()).toList();
    }

    /**
     * The topics the sink reads: its {@code topics} list, else those of {@code existing} (Kafka's topics)
     * that its {@code topics.regex} matches whole, sorted by name (Connect subscribes to them all).
     */
    public static List<String> topics(Map<String, String> config, Collection<String> existing) {
        List<String> listed = topics(config);
        if (!listed.isEmpty()) {
            return listed;
        }
        return topicsRegex(config).map(regex -> existing.stream().filter(t -> regex.matcher(t).matches()).sorted().toList())
                .orElse(List.of());
    }

    /** The sink's {@code topics.regex}, when it has a valid one (Connect itself refuses an invalid one). */
    public static Optional<Pattern> topicsRegex(Map<String, String> config) {
        String regex = config.getOrDefault("topics.regex", "");
        if (regex.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Pattern.compile(regex));
        } catch (PatternSyntaxException e) {
            return Optional.empty();
        }
    }

    /**
     * The Elasticsearch index the sink writes to: our bulk aggregation's {@code camel.beans.aggregate.indexName},
     * the Camel sink's {@code indexName} endpoint option (in {@code camel.sink.url} or
     * {@code camel.sink.endpoint.indexName}); for a connector class named for Elasticsearch, the first topic,
     * which is the index Confluent's Elasticsearch sink writes a topic to. Any other sink names no index
     * (a file, a database): the checks that need one say they do not apply.
     */
    public static Optional<String> index(Map<String, String> config) {
        for (String key : new String[] {"camel.beans.aggregate.indexName", "camel.sink.endpoint.indexName"}) {
            String option = config.get(key);
            if (option != null && !option.isBlank()) {
                return Optional.of(option.trim());
            }
        }
        Matcher m = CAMEL_INDEX.matcher(config.getOrDefault("camel.sink.url", ""));
        if (m.find()) {
            return Optional.of(m.group(1));
        }
        String connectorClass = config.getOrDefault("connector.class", "").toLowerCase(Locale.ROOT);
        return connectorClass.contains("elasticsearch") ? topics(config).stream().findFirst() : Optional.empty();
    }

    /**
     * The task a sink consumer belongs to: Connect names a sink task's consumer
     * {@code connector-consumer-<connector>-<task>}.
     */
    public static Optional<Integer> taskOfClientId(String clientId) {
        Matcher m = TASK_SUFFIX.matcher(clientId == null ? "" : clientId);
        return m.find() ? Optional.of(Integer.parseInt(m.group(1))) : Optional.empty();
    }

    /** The topic Connect writes the records the sink gave up on to: {@code errors.deadletterqueue.topic.name}, when set. */
    public static Optional<String> deadLetterTopic(Map<String, String> config) {
        String topic = config.get("errors.deadletterqueue.topic.name");
        return topic == null || topic.isBlank() ? Optional.empty() : Optional.of(topic.trim());
    }

    /** The consumer group of a sink connector. */
    public static String consumerGroup(String connector) {
        return "connect-" + connector;
    }
}
