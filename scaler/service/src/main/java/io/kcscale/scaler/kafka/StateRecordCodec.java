package io.kcscale.scaler.kafka;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kcscale.scaler.autoscale.AutoscalePolicy;
import io.kcscale.scaler.autoscale.DecisionRecord;
import io.kcscale.scaler.autoscale.Lease;
import io.kcscale.scaler.autoscale.StateRecord;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;

/**
 * The state topic's records: a key per connector and kind ({@code policy/NAME}, {@code pause/NAME},
 * {@code decisions/NAME}) and one {@code leader} key, so that compaction keeps each one's latest; JSON values;
 * a policy's tombstone deletes it. A record this version does not know is skipped, not fatal: a newer replica
 * may share the topic.
 */
final class StateRecordCodec {

    static final String POLICY = "policy/";
    static final String PAUSE = "pause/";
    static final String DECISIONS = "decisions/";
    static final String LEADER = "leader";

    private static final ObjectMapper JSON =
            new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    private static final TypeReference<List<DecisionRecord>> DECISION_LIST = new TypeReference<>() {};

    private StateRecordCodec() {}

    static String key(StateRecord r) {
        if (r instanceof StateRecord.PolicySet s) {
            return POLICY + s.connector();
        }
        if (r instanceof StateRecord.PolicyDeleted d) {
            return POLICY + d.connector();
        }
        if (r instanceof StateRecord.Paused p) {
            return PAUSE + p.connector();
        }
        if (r instanceof StateRecord.Decisions d) {
            return DECISIONS + d.connector();
        }
        return LEADER;
    }

    /** The value, or null for a tombstone. */
    static byte[] value(StateRecord r) {
        ObjectNode v = JSON.createObjectNode();
        if (r instanceof StateRecord.PolicyDeleted) {
            return null;
        }
        if (r instanceof StateRecord.PolicySet s) {
            return bytes(JSON.valueToTree(s.policy()));
        }
        if (r instanceof StateRecord.Paused p) {
            v.put("policyVersion", p.policyVersion());
        } else if (r instanceof StateRecord.Decisions d) {
            lease(v, d.lease());
            v.put("policyVersion", d.policyVersion());
            v.set("decisions", JSON.valueToTree(d.decisions()));
        } else {
            lease(v, ((StateRecord.Claim) r).lease());
        }
        return bytes(v);
    }

    /** The record a key and value stand for; empty for a key of no kind this version knows. */
    static Optional<StateRecord> decode(String key, byte[] value) throws IOException {
        if (key == null) {
            return Optional.empty();
        }
        if (key.startsWith(POLICY)) {
            String connector = key.substring(POLICY.length());
            return Optional.of(
                    value == null
                            ? new StateRecord.PolicyDeleted(connector)
                            : new StateRecord.PolicySet(connector, JSON.readValue(value, AutoscalePolicy.class)));
        }
        if (value == null) {
            return Optional.empty();
        }
        JsonNode v = JSON.readTree(value);
        if (key.startsWith(PAUSE)) {
            return Optional.of(new StateRecord.Paused(
                    key.substring(PAUSE.length()), v.path("policyVersion").asLong(-1)));
        }
        if (key.startsWith(DECISIONS)) {
            return Optional.of(new StateRecord.Decisions(
                    key.substring(DECISIONS.length()),
                    v.path("policyVersion").asLong(-1),
                    lease(v),
                    JSON.readerFor(DECISION_LIST).readValue(v.path("decisions"))));
        }
        return key.equals(LEADER) ? Optional.of(new StateRecord.Claim(lease(v))) : Optional.empty();
    }

    private static void lease(ObjectNode v, Lease lease) {
        v.put("leaderId", lease.leaderId());
        v.put("generation", lease.generation());
    }

    private static Lease lease(JsonNode v) {
        return new Lease(v.path("leaderId").asText(), v.path("generation").asInt(-1));
    }

    private static byte[] bytes(JsonNode node) {
        try {
            return JSON.writeValueAsBytes(node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
