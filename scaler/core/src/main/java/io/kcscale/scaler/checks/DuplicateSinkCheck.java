package io.kcscale.scaler.checks;

import io.kcscale.scaler.model.PipelineSnapshot;
import io.kcscale.scaler.model.SinkTarget;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@code duplicate-sink}: other sink connectors, each its own consumer group, reading the same topic
 * into the same destination: every record is written twice (duplicates without a document id) and the
 * load doubles. Easy to cause by renaming a connector, which makes a new group. The destination is the
 * Elasticsearch index when the sink has one; for any other sink, its connector class and its own
 * settings (a file sink's {@code file}, a database sink's URL and table): what Connect's common keys
 * leave.
 */
public final class DuplicateSinkCheck implements Check {

    public static final String ID = "duplicate-sink";
    /** Keys every connector may set that say nothing of where it writes. */
    private static final Set<String> COMMON_KEYS = Set.of(
            "name",
            "tasks.max",
            "topics",
            "topics.regex",
            "key.converter",
            "value.converter",
            "header.converter",
            "config.action.reload");

    private static final List<String> COMMON_PREFIXES = List.of(
            "transforms",
            "predicates",
            "errors.",
            "consumer.override.",
            "key.converter.",
            "value.converter.",
            "header.converter.");

    @Override
    public String id() {
        return ID;
    }

    @Override
    public Set<CheckInput> needs() {
        return EnumSet.of(CheckInput.CONNECTORS);
    }

    @Override
    public Finding check(PipelineSnapshot snapshot, CheckSamples samples) {
        Evidence e = new Evidence().put("topics", snapshot.topics());
        if (samples.sinkConfig() == null || samples.otherConnectors() == null) {
            return finding(
                    Severity.INFO,
                    "other connectors are unknown (Kafka Connect did not answer)",
                    e,
                    "Run the check again when Connect answers.");
        }
        // an index counts under its own name and its write index's: a sink writing to an alias and one writing to the
        // alias's write index write to the same place
        List<PipelineSnapshot.Index> indexes = snapshot.elasticsearch() == null
                ? List.of()
                : snapshot.elasticsearch().indexes();
        Set<String> own = new TreeSet<>();
        indexes.forEach(i -> {
            own.add(i.name());
            if (i.writeIndex() != null) {
                own.add(i.writeIndex());
            }
        });
        Map<String, String> destination = destination(samples.sinkConfig());
        List<CheckSamples.Connector> sinks = samples.otherConnectors().stream()
                .filter(CheckSamples.Connector::isSink)
                .toList();
        List<String> duplicates = new ArrayList<>();
        Set<String> shared = new TreeSet<>();
        for (CheckSamples.Connector other : sinks) {
            List<String> both = other.indexes().stream().filter(own::contains).toList();
            boolean sameDestination = own.isEmpty()
                    ? other.indexes().isEmpty() && destination.equals(destination(other.config()))
                    : !both.isEmpty();
            if (sameDestination && snapshot.topics().stream().anyMatch(t -> reads(other.config(), t))) {
                duplicates.add(other.name());
                shared.addAll(both);
            }
        }
        String into = own.isEmpty()
                ? "the same destination"
                : shared.isEmpty()
                        ? (indexes.size() == 1 ? "index " + indexes.get(0).name() : "indexes " + names(indexes))
                        : (shared.size() == 1 ? "index " : "indexes ") + String.join(", ", shared);
        e.put("index", indexes.size() == 1 ? indexes.get(0).name() : null)
                .put("indexes", indexes.size() > 1 ? names(indexes) : null)
                .put("otherSinks", sinks.size())
                .put("duplicates", duplicates.size())
                .put("duplicateSinks", duplicates);
        if (own.isEmpty()) {
            e.put("destination", destination);
        }
        if (duplicates.isEmpty()) {
            return finding(
                    Severity.OK,
                    "no other sink connector writes " + snapshot.topics() + " into " + into,
                    e,
                    "When renaming a sink, delete the old connector: the new name is a new consumer group that reads the topic again.");
        }
        return finding(
                Severity.WARNING,
                duplicates.size() + " other sink connector(s) " + duplicates + " also write " + snapshot.topics()
                        + " into " + into + ": duplicate records and twice the load",
                e,
                "Keep one: DELETE /connectors/" + duplicates.get(0) + " on Kafka Connect (its group connect-"
                        + duplicates.get(0)
                        + " can then be deleted). Each is its own consumer group, so each writes every record.");
    }

    private static List<String> names(List<PipelineSnapshot.Index> indexes) {
        return indexes.stream().map(PipelineSnapshot.Index::name).toList();
    }

    /** Whether a sink's {@code topics} list or {@code topics.regex} takes in {@code topic}. */
    private static boolean reads(Map<String, String> config, String topic) {
        return SinkTarget.topics(config).contains(topic)
                || SinkTarget.topicsRegex(config)
                        .map(regex -> regex.matcher(topic).matches())
                        .orElse(false);
    }

    /** Where a sink writes, as far as its config says: its class and the settings that are its own. */
    private static Map<String, String> destination(Map<String, String> config) {
        Map<String, String> own = new TreeMap<>();
        config.forEach((key, value) -> {
            if (!COMMON_KEYS.contains(key) && COMMON_PREFIXES.stream().noneMatch(key::startsWith)) {
                own.put(key, Objects.toString(value, "").strip());
            }
        });
        return own;
    }

    private static Finding finding(Severity severity, String title, Evidence evidence, String advice) {
        return new Finding(ID, severity, title, evidence.map(), advice);
    }
}
