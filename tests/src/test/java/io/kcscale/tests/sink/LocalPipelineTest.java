package io.kcscale.tests.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.local.LocalStack;
import io.kcscale.local.StackOptions;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.scaler.ports.ConnectorStatus;
import io.kcscale.tests.fixtures.SharedStack;
import io.kcscale.tests.fixtures.StackProbe;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The spine: datagen produces exactly N records, the Camel sink indexes exactly N documents with
 * their fields; raising tasks.max 1 → 3 mid-flow gives 3 RUNNING tasks spread over both workers,
 * and the count still ends exact (no record lost or indexed twice across the rebalance).
 */
@Order(1)
@ExtendWith(SharedStack.class)
class LocalPipelineTest {

    private static final Set<String> STOCK_TRADE_FIELDS =
            Set.of("side", "quantity", "symbol", "price", "account", "userid", "produced_at_ms");

    @Test
    void indexesExactlyTheProducedRecordsAcrossAScaleUp(LocalStack stack) throws Exception {
        try (StackProbe probe = new StackProbe(stack)) {
            long n = SharedStack.INITIAL_RECORDS;
            awaitExactDocuments(probe, n);
            assertEquals(n, probe.recordsInTopic(StackOptions.TOPIC), "the source must stop at iterations=" + n);
            for (JsonNode doc : probe.someDocuments(StackOptions.INDEX, 20)) {
                Set<String> fields = new TreeSet<>();
                doc.fieldNames().forEachRemaining(fields::add);
                assertEquals(new TreeSet<>(STOCK_TRADE_FIELDS), fields, "fields of an indexed stock trade: " + doc);
            }

            // N more records at a pace that keeps them flowing while the sink group rebalances
            probe.updateConnector(
                    StackOptions.SOURCE_CONNECTOR, Map.of("iterations", String.valueOf(2 * n), "rate.per.task", "500"));
            probe.updateConnector(StackOptions.SINK_CONNECTOR, Map.of("tasks.max", "3"));
            ConnectorStatus sink =
                    Poll.until("3 RUNNING sink tasks", Duration.ofSeconds(60), Duration.ofMillis(200), () -> {
                        ConnectorStatus s = probe.connect.connectorStatus(StackOptions.SINK_CONNECTOR);
                        if (s.tasks().size() == 3 && s.tasksInState("RUNNING") == 3) {
                            return Optional.of(s);
                        }
                        throw new IllegalStateException("sink tasks: " + s.tasks());
                    });
            Set<String> workers = sink.tasks().stream()
                    .map(ConnectorStatus.TaskStatus::workerId)
                    .collect(Collectors.toSet());
            assertEquals(2, workers.size(), "3 sink tasks on a 2-worker group must use both workers: " + sink.tasks());

            awaitExactDocuments(probe, 2 * n);
            assertEquals(
                    2 * n, probe.recordsInTopic(StackOptions.TOPIC), "the source must stop at iterations=" + 2 * n);
            Poll.untilTrue(
                    "the sink group to commit every record",
                    Duration.ofSeconds(60),
                    Duration.ofMillis(250),
                    () -> probe.sinkLag() == 0,
                    () -> "lag " + probe.sinkLag());
            assertEquals(2 * n, probe.documentCount(StackOptions.INDEX), "no document indexed twice after the commit");
        }
    }

    /** Polls until the index holds exactly {@code expected} documents; more than that fails at once. */
    private static void awaitExactDocuments(StackProbe probe, long expected) {
        Poll.until(
                expected + " documents in index " + StackOptions.INDEX,
                Duration.ofSeconds(120),
                Duration.ofMillis(500),
                () -> {
                    long count = probe.documentCount(StackOptions.INDEX);
                    if (count > expected) {
                        throw new Poll.Abort(
                                "the index holds " + count + " documents, more than the " + expected + " produced");
                    }
                    if (count < expected) {
                        throw new IllegalStateException(count + " documents so far");
                    }
                    return Optional.of(count);
                });
    }
}
