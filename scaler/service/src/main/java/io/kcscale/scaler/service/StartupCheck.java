package io.kcscale.scaler.service;

import io.kcscale.scaler.kafka.KafkaUnavailableException;
import io.kcscale.scaler.model.PipelineSnapshot;
import io.kcscale.scaler.observe.PipelineWatcher;
import io.kcscale.scaler.ports.KafkaReadings;
import io.kcscale.scaler.ports.SinkClusterReadings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeoutException;

/**
 * What the scaler cannot reach or is not allowed to read, found once at start, before anyone asks:
 * one line per problem, naming the system and, for credentials, trust and permissions, what to
 * change. Asks each system once (Kafka even when Connect does not answer, so a wrong Kafka password
 * shows beside a wrong Connect one) and takes the first sample, which meets missing ACLs.
 */
final class StartupCheck {

    /** A cold client's first TLS and SASL handshakes may take longer than one request timeout on a loaded machine. */
    private static final Duration KAFKA_PATIENCE = Duration.ofSeconds(20);

    private StartupCheck() {}

    /** Which look found a problem: Kafka's own (the brokers refused or did not answer), Elasticsearch's, Connect's, or the first sample's. */
    enum Source {
        KAFKA,
        ELASTICSEARCH,
        CONNECT,
        FIRST_SAMPLE
    }

    /** One problem: where it was found, and its line for the operator. */
    record Problem(Source source, String line) {}

    /** Must run before the watcher's loop starts: it takes the watcher's first sample itself. */
    static List<Problem> problems(KafkaReadings kafka, SinkClusterReadings elasticsearch, PipelineWatcher watcher) {
        List<Problem> found = new ArrayList<>();
        kafkaProblem(kafka).ifPresent(line -> found.add(new Problem(Source.KAFKA, line)));
        try {
            elasticsearch.writePressure();
        } catch (RuntimeException e) {
            found.add(new Problem(Source.ELASTICSEARCH, e.getMessage()));
        }
        watcher.sampleOnce();
        watcher.connectError().ifPresent(line -> found.add(new Problem(Source.CONNECT, line)));
        for (PipelineSnapshot snapshot : watcher.snapshots()) {
            for (String line : snapshot.unreachable()) {
                if (found.stream().noneMatch(p -> line.endsWith(p.line()))) {
                    found.add(new Problem(Source.FIRST_SAMPLE, line));
                }
            }
        }
        // one line each, as found first
        Set<String> lines = new LinkedHashSet<>();
        return found.stream().filter(p -> lines.add(p.line())).toList();
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
