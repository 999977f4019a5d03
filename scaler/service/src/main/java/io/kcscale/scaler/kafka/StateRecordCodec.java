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
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * The state topic's records: a key per connector and kind ({@code policy/NAME}, {@code pause/NAME},
 * {@code decisions/NAME}), the {@code leader} key for claims and the {@code lease} key for renewals and releases, so
 * that compaction keeps each one's latest (a claim outlives its renewals, so the decisions written under it stay
 * readable); JSON values; a policy's tombstone deletes it.
 *
 * <p>Every record carries its format in the {@value #FORMAT_HEADER} header, the format its kind last changed in, so
 * that a replica of the format before still reads the kinds that did not change. Format 3 (decisions only) leaves a
 * decision's tasks out when they are not known, and types its inputs. Format 2 states leases by epoch and duration;
 * its decisions said -1 tasks when not known, and are read so. Format 1 (no header) stated a lease by the leader
 * group's generation, which is read as its epoch, with the 10 s the group took to drop a silent leader as its
 * duration. A record of a newer format, or of a key this version does not know, is skipped, not fatal: a newer
 * replica may share the topic.
 */
final class StateRecordCodec {

    static final String FORMAT_HEADER = "kcscale.state.format";
    /** The format leases by epoch came in: every kind of record but decisions is written in it still. */
    static final int EPOCH_LEASES_FORMAT = 2;
    /** The format decisions last changed in. */
    static final int TYPED_DECISIONS_FORMAT = 3;
    /** The newest format this version reads. */
    static final int FORMAT = TYPED_DECISIONS_FORMAT;
    /** A format-1 lease ended when the leader group dropped its holder: after the group's 10 s session timeout. */
    static final long FORMAT_1_LEASE_MILLIS = 10_000;

    static final String POLICY = "policy/";
    static final String PAUSE = "pause/";
    static final String DECISIONS = "decisions/";
    static final String LEADER = "leader";
    static final String LEASE = "lease";

    private static final ObjectMapper JSON =
            new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    private static final TypeReference<List<DecisionRecord>> DECISION_LIST = new TypeReference<>() {};

    private StateRecordCodec() {}

    /** The value of the {@value #FORMAT_HEADER} header this version writes on {@code r}. */
    static byte[] formatHeader(StateRecord r) {
        int format = r instanceof StateRecord.Decisions ? TYPED_DECISIONS_FORMAT : EPOCH_LEASES_FORMAT;
        return String.valueOf(format).getBytes(StandardCharsets.US_ASCII);
    }

    /** The format a record's header names: 1 without one, -1 when it is no number. */
    static int format(byte[] header) {
        if (header == null) {
            return 1;
        }
        try {
            return Integer.parseInt(new String(header, StandardCharsets.US_ASCII).strip());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

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
        return r instanceof StateRecord.Claim ? LEADER : LEASE;
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
        } else if (r instanceof StateRecord.Claim c) {
            lease(v, c.lease());
            v.put("durationMillis", c.durationMillis());
        } else if (r instanceof StateRecord.Renewal n) {
            lease(v, n.lease());
            v.put("durationMillis", n.durationMillis());
        } else {
            lease(v, ((StateRecord.Release) r).lease());
            v.put("released", true);
        }
        return bytes(v);
    }

    /**
     * The record a key and value of {@code format} stand for; empty for a key of no kind this version knows, or a
     * format it does not read.
     */
    static Optional<StateRecord> decode(String key, byte[] value, int format) throws IOException {
        if (key == null || format < 1 || format > FORMAT) {
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
            if (format < TYPED_DECISIONS_FORMAT) {
                v.path("decisions").forEach(StateRecordCodec::unknownTasksAbsent);
            }
            return Optional.of(new StateRecord.Decisions(
                    key.substring(DECISIONS.length()),
                    v.path("policyVersion").asLong(-1),
                    lease(v, format),
                    JSON.readerFor(DECISION_LIST).readValue(v.path("decisions"))));
        }
        if (key.equals(LEADER)) {
            return Optional.of(new StateRecord.Claim(
                    lease(v, format),
                    format == 1
                            ? FORMAT_1_LEASE_MILLIS
                            : v.path("durationMillis").asLong(0)));
        }
        if (key.equals(LEASE) && format > 1) {
            return Optional.of(
                    v.path("released").asBoolean()
                            ? new StateRecord.Release(lease(v, format))
                            : new StateRecord.Renewal(
                                    lease(v, format), v.path("durationMillis").asLong(0)));
        }
        return Optional.empty();
    }

    /**
     * A decision of format 1 or 2 on a connector not observed said -1 tasks; it knew none. (Its inputs' nulls and
     * "NaN"s, the other unknowns it wrote, read as absent: {@link io.kcscale.scaler.autoscale.DecisionInputs} drops
     * what is not a finite number.)
     */
    private static void unknownTasksAbsent(JsonNode record) {
        if (record.path("decision") instanceof ObjectNode d && d.path("toTasks").asInt(0) < 0) {
            d.remove(List.of("fromTasks", "toTasks"));
        }
    }

    private static void lease(ObjectNode v, Lease lease) {
        v.put("leaderId", lease.leaderId());
        v.put("epoch", lease.epoch());
    }

    private static Lease lease(JsonNode v, int format) {
        return new Lease(
                v.path("leaderId").asText(),
                v.path(format == 1 ? "generation" : "epoch").asLong(-1));
    }

    private static byte[] bytes(JsonNode node) {
        try {
            return JSON.writeValueAsBytes(node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
