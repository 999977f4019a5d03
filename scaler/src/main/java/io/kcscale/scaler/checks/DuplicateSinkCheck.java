package io.kcscale.scaler.checks;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

import io.kcscale.scaler.model.PipelineSnapshot;
import io.kcscale.scaler.model.SinkTarget;

/**
 * {@code duplicate-sink}: other sink connectors, each its own consumer group, reading the same topic
 * into the same index: every record is indexed twice (duplicates without a document id) and the load
 * doubles. Easy to cause by renaming a connector, which makes a new group.
 */
public final class DuplicateSinkCheck implements Check {

    public static final String ID = "duplicate-sink";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public Finding check(PipelineSnapshot snapshot, CheckSamples samples) {
        Evidence e = new Evidence().put("topics", snapshot.topics());
        if (samples.sinkConfig() == null || samples.otherConnectors() == null) {
            return finding(Severity.INFO, "other connectors are unknown (Kafka Connect did not answer)", e,
                    "Run the check again when Connect answers.");
        }
        Optional<String> index = SinkTarget.index(samples.sinkConfig());
        List<CheckSamples.Connector> sinks = samples.otherConnectors().stream().filter(CheckSamples.Connector::isSink).toList();
        List<String> duplicates = new ArrayList<>();
        for (CheckSamples.Connector other : sinks) {
            if (index.isPresent() && index.equals(SinkTarget.index(other.config()))
                    && snapshot.topics().stream().anyMatch(t -> reads(other.config(), t))) {
                duplicates.add(other.name());
            }
        }
        e.put("index", index.orElse(null)).put("otherSinks", sinks.size()).put("duplicates", duplicates.size())
                .put("duplicateSinks", duplicates);
        if (duplicates.isEmpty()) {
            return finding(Severity.OK, "no other sink connector writes " + snapshot.topics() + " into "
                    + index.map(i -> "index " + i).orElse("the same index"), e,
                    "When renaming a sink, delete the old connector: the new name is a new consumer group that reads the topic again.");
        }
        return finding(Severity.WARNING, duplicates.size() + " other sink connector(s) " + duplicates + " also write "
                + snapshot.topics() + " into index " + index.get() + ": duplicate documents and twice the load", e,
                "Keep one: DELETE /connectors/" + duplicates.get(0) + " on Kafka Connect (its group connect-" + duplicates.get(0)
                        + " can then be deleted). Each is its own consumer group, so each indexes every record.");
    }

    /** Whether a sink's {@code topics} list or {@code topics.regex} takes in {@code topic}. */
    private static boolean reads(Map<String, String> config, String topic) {
        if (SinkTarget.topics(config).contains(topic)) {
            return true;
        }
        String regex = config.getOrDefault("topics.regex", "");
        try {
            return !regex.isBlank() && Pattern.matches(regex, topic);
        } catch (PatternSyntaxException e) {
            return false;  // Connect itself rejects such a connector
        }
    }

    private static Finding finding(Severity severity, String title, Evidence evidence, String advice) {
        return new Finding(ID, severity, title, evidence.map(), advice);
    }
}
