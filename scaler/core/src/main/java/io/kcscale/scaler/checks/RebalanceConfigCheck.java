package io.kcscale.scaler.checks;

import io.kcscale.scaler.model.PipelineSnapshot;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code rebalance-config}: the sink consumer's assignment strategy and its session and heartbeat
 * timeouts. Every tasks.max change rebalances the sink group: an eager assignor stops every task
 * for it, a long session timeout leaves a dead task's partitions unread that long. Values come from
 * the connector's {@code consumer.override.*}, else the worker's {@code consumer.*}, else Kafka's
 * defaults; the assignor is the one the group reports using, when it has members.
 */
public final class RebalanceConfigCheck implements Check {

    public static final String ID = "rebalance-config";
    static final String COOPERATIVE_CLASS = "org.apache.kafka.clients.consumer.CooperativeStickyAssignor";
    static final String COOPERATIVE = "cooperative-sticky";
    /** Kafka's client defaults, which Connect does not change for sink consumers. */
    static final String DEFAULT_STRATEGY = "org.apache.kafka.clients.consumer.RangeAssignor," + COOPERATIVE_CLASS;

    static final long DEFAULT_SESSION_MS = 45_000;
    static final long DEFAULT_HEARTBEAT_MS = 3_000;
    /** The guidance: a session timeout around 6 s; longer than this is worth shortening. */
    static final long SUGGESTED_SESSION_MS = 6_000;

    static final long LONG_SESSION_MS = 10_000;

    @Override
    public String id() {
        return ID;
    }

    @Override
    public Set<CheckInput> needs() {
        return EnumSet.of(CheckInput.GROUP, CheckInput.CONNECTORS, CheckInput.WORKER_CONFIG);
    }

    @Override
    public Finding check(PipelineSnapshot snapshot, CheckSamples samples) {
        if (samples.sinkConfig() == null) {
            return finding(
                    Severity.INFO,
                    "the sink's consumer settings are unknown (Kafka Connect did not answer)",
                    new Evidence(),
                    "Run the check again when Connect answers.");
        }
        Setting strategy = setting(samples, "partition.assignment.strategy", DEFAULT_STRATEGY);
        Setting session = setting(samples, "session.timeout.ms", String.valueOf(DEFAULT_SESSION_MS));
        Setting heartbeat = setting(samples, "heartbeat.interval.ms", String.valueOf(DEFAULT_HEARTBEAT_MS));
        boolean consumerProtocol = "CONSUMER".equalsIgnoreCase(samples.groupProtocol());
        String assignor = assignor(samples);
        boolean cooperative = consumerProtocol || COOPERATIVE.equals(assignor);
        Long sessionMs = millis(session.value());
        Long heartbeatMs = millis(heartbeat.value());
        Evidence e = new Evidence()
                .put("assignor", assignor)
                .put(
                        "assignorFrom",
                        samples.groupAssignor() == null
                                        || samples.groupAssignor().isBlank()
                                ? strategy.from()
                                : "group")
                .put("cooperative", cooperative)
                .put("groupProtocol", samples.groupProtocol())
                .put("sessionTimeoutMs", sessionMs)
                .put("sessionTimeoutFrom", session.from())
                .put("heartbeatIntervalMs", heartbeatMs)
                .put("heartbeatIntervalFrom", heartbeat.from())
                .put("tasks", snapshot.tasks().size());
        List<String> problems = new ArrayList<>();
        List<String> overrides = new ArrayList<>();
        Severity severity = Severity.OK;
        if (!cooperative) {
            severity = Severity.WARNING;
            problems.add("eager assignment (" + assignor + "): every rebalance, each scale included, stops all "
                    + snapshot.tasks().size() + " tasks");
            overrides.add("\"consumer.override.partition.assignment.strategy\": \"" + COOPERATIVE_CLASS + "\"");
        }
        // the consumer protocol sets the session on the broker (group.consumer.session.timeout.ms), not per client
        if (!consumerProtocol && sessionMs != null && heartbeatMs != null) {
            if (heartbeatMs * 3 > sessionMs) {
                severity = Severity.WARNING;
                problems.add("heartbeat " + heartbeatMs + " ms is more than a third of the session timeout " + sessionMs
                        + " ms");
            } else if (sessionMs > LONG_SESSION_MS) {
                severity = Severity.worst(severity, Severity.INFO);
                problems.add(String.format(
                        Locale.ROOT,
                        "session timeout %.0f s: a dead task's partitions wait that long",
                        sessionMs / 1000.0));
            }
            if (heartbeatMs * 3 > sessionMs || sessionMs > LONG_SESSION_MS) {
                long target = Math.min(sessionMs, SUGGESTED_SESSION_MS);
                overrides.add("\"consumer.override.session.timeout.ms\": \"" + target + "\"");
                overrides.add("\"consumer.override.heartbeat.interval.ms\": \"" + target / 4 + "\"");
            }
        }
        if (problems.isEmpty()) {
            return finding(
                    Severity.OK,
                    "incremental cooperative assignment"
                            + (consumerProtocol
                                    ? " (consumer group protocol)"
                                    : ", session " + sessionMs + " ms, heartbeat " + heartbeatMs + " ms"),
                    e,
                    "Change one setting at a time, and wait out each rebalance before the next change.");
        }
        return finding(
                severity,
                String.join("; ", problems),
                e,
                "Add to the sink connector's config (the worker must allow "
                        + "client overrides: connector.client.config.override.policy=All, Kafka's default):\n"
                        + String.join(",\n", overrides)
                        + "\nOne change at a time: each config change restarts the tasks and rebalances.");
    }

    private record Setting(String value, String from) {}

    /** The assignor the sink group uses: as the group reports it, else the first of the strategy its consumers are given. */
    static String assignor(CheckSamples samples) {
        return samples.groupAssignor() == null || samples.groupAssignor().isBlank()
                ? firstAssignor(setting(samples, "partition.assignment.strategy", DEFAULT_STRATEGY)
                        .value())
                : samples.groupAssignor();
    }

    /** A consumer setting of the sink: connector override, else worker, else Kafka's default. */
    private static Setting setting(CheckSamples samples, String key, String fallback) {
        String override =
                samples.sinkConfig() == null ? null : samples.sinkConfig().get("consumer.override." + key);
        if (override != null && !override.isBlank()) {
            return new Setting(override.trim(), "connector");
        }
        Map<String, String> worker = samples.workerConfig();
        String fromWorker = worker == null ? null : worker.get("consumer." + key);
        if (fromWorker != null && !fromWorker.isBlank()) {
            return new Setting(fromWorker.trim(), "worker");
        }
        return new Setting(fallback, "default");
    }

    /** The protocol name the group would pick from a strategy list: its first assignor's. */
    static String firstAssignor(String strategy) {
        String first = Arrays.stream(strategy.split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .findFirst()
                .orElse("");
        String simple = first.replaceFirst("^class\\s+", "").replaceFirst(".*\\.", "");
        switch (simple) {
            case "RangeAssignor":
                return "range";
            case "RoundRobinAssignor":
                return "roundrobin";
            case "StickyAssignor":
                return "sticky";
            case "CooperativeStickyAssignor":
                return COOPERATIVE;
            default:
                return simple;
        }
    }

    private static Long millis(String value) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Finding finding(Severity severity, String title, Evidence evidence, String advice) {
        return new Finding(ID, severity, title, evidence.map(), advice);
    }
}
