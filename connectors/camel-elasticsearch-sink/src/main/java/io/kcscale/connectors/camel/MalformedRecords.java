package io.kcscale.connectors.camel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps records whose value is no JSON document ({@link JsonDocuments}) out of Elasticsearch requests,
 * doing with each what {@value #CONFIG} says: {@code fail} the task (the default), send it to the
 * dead-letter topic ({@code dlq}), or {@code ignore} it (counted and logged). Left in a request, such a
 * record would fail it as a whole on every delivery, forever.
 */
final class MalformedRecords {

    static final String CONFIG = "kcscale.malformed.records";

    enum Policy {
        FAIL,
        DLQ,
        IGNORE
    }

    private static final Logger LOG = LoggerFactory.getLogger(MalformedRecords.class);

    private final Policy policy;
    private final DeadLetters deadLetters;
    private long ignored;

    private MalformedRecords(Policy policy, DeadLetters deadLetters) {
        this.policy = policy;
        this.deadLetters = deadLetters;
    }

    /** {@code definitions} with this setting added, so Connect checks its value and lists it. */
    static ConfigDef define(ConfigDef definitions) {
        return definitions.define(
                CONFIG,
                ConfigDef.Type.STRING,
                "fail",
                ConfigDef.CaseInsensitiveValidString.in("fail", "dlq", "ignore"),
                ConfigDef.Importance.MEDIUM,
                "What to do with a record whose value is not one JSON object in UTF-8: fail the task (naming the record), "
                        + "send it to the dead-letter topic (dlq; needs " + DeadLetters.HOW_TO_CONFIGURE
                        + "), or ignore it "
                        + "(counted and logged).");
    }

    /** What is wrong with the setting in {@code config}, by key; empty when all is well. */
    static Map<String, String> problems(Map<String, String> config) {
        Optional<Policy> policy = policy(config);
        if (policy.isEmpty()) {
            return Map.of(CONFIG, "must be fail, dlq or ignore, got " + config.get(CONFIG));
        }
        if (policy.get() == Policy.DLQ && !DeadLetters.configured(config)) {
            return Map.of(CONFIG, "dlq needs a dead-letter topic: " + DeadLetters.HOW_TO_CONFIGURE);
        }
        return Map.of();
    }

    static MalformedRecords of(Map<String, String> config, DeadLetters deadLetters) {
        Policy policy = policy(config)
                .orElseThrow(() ->
                        new ConnectException(CONFIG + " " + problems(config).get(CONFIG)));
        if (policy == Policy.DLQ && !deadLetters.available()) {
            throw new ConnectException(CONFIG + "=dlq needs a dead-letter topic: " + DeadLetters.HOW_TO_CONFIGURE);
        }
        return new MalformedRecords(policy, deadLetters);
    }

    private static Optional<Policy> policy(Map<String, String> config) {
        String name = config.getOrDefault(CONFIG, "fail").trim().toUpperCase(Locale.ROOT);
        return Arrays.stream(Policy.values()).filter(p -> p.name().equals(name)).findFirst();
    }

    /** The records that can be indexed, in order, with their documents; the others are dealt with here. */
    List<Document> screen(Collection<SinkRecord> records) {
        List<Document> documents = new ArrayList<>(records.size());
        for (SinkRecord record : records) {
            JsonDocuments.Checked checked = JsonDocuments.check(record.value());
            if (checked.problem() == null) {
                documents.add(new Document(record, checked.bytes()));
            } else {
                malformed(
                        record,
                        "the record at " + RecordCoordinates.of(record).described() + " cannot be indexed: "
                                + checked.problem());
            }
        }
        return documents;
    }

    private void malformed(SinkRecord record, String reason) {
        switch (policy) {
            case DLQ -> deadLetters.send(record, reason);
            case IGNORE -> {
                ignored++;
                LOG.warn("{}; ignored ({}=ignore), {} so far by this task", reason, CONFIG, ignored);
            }
            default ->
                throw new ConnectException(reason + ". To carry on past such records set " + CONFIG
                        + "=dlq (with a dead-letter topic) or " + CONFIG + "=ignore");
        }
    }
}
