package io.kcscale.scaler.checks;

import io.kcscale.scaler.model.SinkTarget;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The source connector writing a topic and the field its keys come from, as its config says:
 * {@code schema.keyfield}, or, for a datagen connector without it, the record's first field.
 *
 * @param keyField the field's name, or null when the config does not say (then {@code firstField} tells)
 * @param firstField true when the key is the record's first field because {@code schema.keyfield} is unset
 */
record SourceKey(String connector, String keyField, boolean firstField) {

    static final String KEY_FIELD = "schema.keyfield";

    /** The first source (by name) whose config names {@code topic} as the one it writes. */
    static Optional<SourceKey> find(String topic, List<CheckSamples.Connector> connectors) {
        return connectors.stream()
                .filter(c -> c.isSource() && writes(c.config(), topic))
                .min(Comparator.comparing(CheckSamples.Connector::name))
                .map(c -> of(c.name(), c.config()));
    }

    /** datagen's {@code kafka.topic}, or the {@code topic}/{@code topics} most other sources use. */
    private static boolean writes(Map<String, String> config, String topic) {
        return topic.equals(config.get("kafka.topic"))
                || topic.equals(config.get("topic"))
                || SinkTarget.topics(config).contains(topic);
    }

    private static SourceKey of(String name, Map<String, String> config) {
        String field = config.getOrDefault(KEY_FIELD, "").trim();
        if (!field.isEmpty()) {
            return new SourceKey(name, field, false);
        }
        boolean datagen = config.containsKey("quickstart")
                || config.containsKey("schema.string")
                || config.getOrDefault("connector.class", "")
                        .toLowerCase(java.util.Locale.ROOT)
                        .contains("datagen");
        return new SourceKey(name, null, datagen);
    }

    /** Whether the config can be told which field to key by (a datagen-style source). */
    boolean configurable() {
        return keyField != null || firstField;
    }

    /** How the evidence names the key field: the field, or "first field of the record (side)". */
    String describe(String sampledFirstField) {
        if (keyField != null) {
            return keyField;
        }
        if (firstField) {
            return "first field of the record" + (sampledFirstField == null ? "" : " (" + sampledFirstField + ")");
        }
        return null;
    }

    /** The field the keys come from, when known by name. */
    Optional<String> field(String sampledFirstField) {
        return Optional.ofNullable(keyField != null ? keyField : firstField ? sampledFirstField : null);
    }
}
