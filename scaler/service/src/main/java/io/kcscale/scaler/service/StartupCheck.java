package io.kcscale.scaler.service;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeoutException;

import io.kcscale.scaler.kafka.KafkaUnavailableException;
import io.kcscale.scaler.model.PipelineSnapshot;
import io.kcscale.scaler.observe.PipelineWatcher;
import io.kcscale.scaler.ports.KafkaReadings;
import io.kcscale.scaler.ports.SinkClusterReadings;

/**
 * What the scaler cannot reach or is not allowed to read, found once at start, before anyone asks:
 * one line per problem, naming the system and, for credentials, trust and permissions, what to
 * change. Asks each system once (Kafka even when Connect does not answer, so a wrong Kafka password
 * shows beside a wrong Connect one) and takes the first sample, which meets missing ACLs.
 */
final class StartupCheck {

    /** A cold client's first TLS and SASL handshakes may take longer than one request timeout on a loaded machine. */
    private static final Duration KAFKA_PATIENCE = Duration.ofSeconds(20);

    private StartupCheck() {
    }

    /** Must run before the watcher's loop starts: it takes the watcher's first sample itself. */
    static List<String> problems(KafkaReadings kafka, SinkClusterReadings elasticsearch, PipelineWatcher watcher) {
        Set<String> lines = new LinkedHashSet<>();
        kafkaProblem(kafka).ifPresent(lines::add);
        try {
            elasticsearch.writePressure();
        } catch (RuntimeException e) {
            lines.add(e.getMessage());
        }
        watcher.sampleOnce();
        watcher.connectError().ifPresent(lines::add);
        for (PipelineSnapshot snapshot : watcher.snapshots()) {
            for (String line : snapshot.unreachable()) {
                if (lines.stream().noneMatch(line::endsWith)) {
                    lines.add(line);
                }
            }
        }
        return List.copyOf(lines);
    }

    /** Asks again while Kafka only timed out, until {@link #KAFKA_PATIENCE} has passed; each ask waits one request timeout. */
    private static Optional<String> kafkaProblem(KafkaReadings kafka) {
        long deadline = System.nanoTime() + KAFKA_PATIENCE.toNanos();
        while (true) {
            try {
                kafka.brokerCount();
                return Optional.empty();
            } catch (KafkaUnavailableException e) {
                boolean timedOut = e.getCause() instanceof TimeoutException
                        || e.getCause() instanceof org.apache.kafka.common.errors.TimeoutException;
                if (!timedOut || System.nanoTime() >= deadline) {
                    return Optional.of(e.getMessage());
                }
            }
        }
    }
}
