package io.kcscale.scaler.model;

import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** What a sink connector's configuration says about where it reads and writes. Pure. */
public final class SinkTarget {

    private static final Pattern CAMEL_INDEX = Pattern.compile("[?&]indexName=([^&]+)");
    private static final Pattern TASK_SUFFIX = Pattern.compile("-(\\d+)$");
    /** Confluent's sink keeps at most this much of a topic's name in a data stream's name. */
    private static final int DATA_STREAM_TOPIC_CHARS = 100;

    private SinkTarget() {}

    /** The topics of {@code topics} (a comma-separated list); empty for a {@code topics.regex} sink. */
    public static List<String> topics(Map<String, String> config) {
        String topics = config.getOrDefault("topics", "");
        return Arrays.stream(topics.split(","))
                .map(String::trim)
                .filter(t -> !t.isEmpty())
                .toList();
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
        return topicsRegex(config)
                .map(regex -> existing.stream()
                        .filter(t -> regex.matcher(t).matches())
                        .sorted()
                        .toList())
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
     * Every index the sink writes to, as its config names them (an alias or a data stream is named, not resolved), in the
     * order of its topics and without repeats:
     * <ul>
     * <li>our bulk aggregation's {@code camel.beans.aggregate.indexName}, the Camel sink's {@code indexName} endpoint option
     * ({@code camel.sink.endpoint.indexName}, or in {@code camel.sink.url}): that one index whatever the topics;</li>
     * <li>a connector class named for Elasticsearch (Confluent's sink): one index per topic, the topic's entry in
     * {@code topic.index.map} ({@code topic:index,...}) if it has one, else the data stream
     * {@code <data.stream.type>-<data.stream.dataset>-<topic>} when both are set, else the topic as an index name;</li>
     * <li>a connector class named for OpenSearch (Aiven's sink): one index per topic, the topic as an index name,
     * led by {@code data.stream.prefix-} when {@code data.stream.enabled} is true.</li>
     * </ul>
     * Any other sink names no index (a file, a database): the checks that need one say they do not apply.
     *
     * @param topics the topics the sink reads (its {@code topics.regex} matched already)
     */
    public static List<String> indexes(Map<String, String> config, List<String> topics) {
        for (String key : new String[] {"camel.beans.aggregate.indexName", "camel.sink.endpoint.indexName"}) {
            String option = config.get(key);
            if (option != null && !option.isBlank()) {
                return List.of(option.trim());
            }
        }
        Matcher m = CAMEL_INDEX.matcher(config.getOrDefault("camel.sink.url", ""));
        if (m.find()) {
            return List.of(m.group(1));
        }
        String connectorClass = config.getOrDefault("connector.class", "").toLowerCase(Locale.ROOT);
        Function<String, String> perTopic;
        if (connectorClass.contains("elasticsearch")) {
            perTopic = elasticsearchSinkIndex(config);
        } else if (connectorClass.contains("opensearch")) {
            perTopic = openSearchSinkIndex(config);
        } else {
            return List.of();
        }
        return topics.stream().map(perTopic).distinct().toList();
    }

    /** Confluent's Elasticsearch sink: {@code topic.index.map}, else a data stream, else the topic. */
    private static Function<String, String> elasticsearchSinkIndex(Map<String, String> config) {
        Map<String, String> mapped = new HashMap<>();
        for (String entry : config.getOrDefault("topic.index.map", "").split(",")) {
            String[] parts = entry.split(":");
            if (parts.length == 2 && !parts[0].isBlank() && !parts[1].isBlank()) {
                mapped.put(parts[0].trim(), parts[1].trim());
            }
        }
        String type = config.getOrDefault("data.stream.type", "").trim().toLowerCase(Locale.ROOT);
        String dataset = config.getOrDefault("data.stream.dataset", "").trim();
        boolean dataStream = !type.isEmpty() && !type.equals("none") && !dataset.isEmpty();
        return topic -> mapped.containsKey(topic)
                ? mapped.get(topic)
                : dataStream
                        ? type + "-" + dataset + "-" + truncate(topic.toLowerCase(Locale.ROOT), DATA_STREAM_TOPIC_CHARS)
                        : topicAsIndex(topic, "-_");
    }

    /** Aiven's OpenSearch sink: the topic, led by {@code data.stream.prefix-} for a data stream. */
    private static Function<String, String> openSearchSinkIndex(Map<String, String> config) {
        boolean dataStream = "true"
                .equalsIgnoreCase(config.getOrDefault("data.stream.enabled", "").trim());
        String prefix = config.getOrDefault("data.stream.prefix", "").trim();
        return topic -> {
            String index = topicAsIndex(topic.replace(':', '_'), "-_+");
            return dataStream && !prefix.isEmpty() ? prefix + "-" + index : index;
        };
    }

    /** A topic made an index name as these sinks make it: lower case, at most 255 characters, no leading mark, no dots alone. */
    private static String topicAsIndex(String topic, String leadingMarks) {
        String index = truncate(topic.toLowerCase(Locale.ROOT), 255);
        if (!index.isEmpty() && leadingMarks.indexOf(index.charAt(0)) >= 0) {
            index = index.substring(1);
        }
        return index.equals(".") || index.equals("..") ? index.replace(".", "dot") : index;
    }

    private static String truncate(String s, int chars) {
        return s.length() > chars ? s.substring(0, chars) : s;
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
