package io.kcscale.lab.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kcscale.lab.bench.ConnectorBenchResult;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchConnectorsCommandTest {

    @Test
    void theTableShowsEachFigureWithItsUnitAndTheFractionOfTheCeilingForEachNumberInFlight() {
        ConnectorBenchResult result = new ConnectorBenchResult(
                41_234.5,
                2_610.2,
                new ConnectorBenchResult.TurnsCpu(31.2, 120.44, 1.2),
                List.of(
                        ConnectorBenchResult.BulkAgainstCeiling.of(
                                1,
                                11_900.7,
                                14_200.1,
                                new ConnectorBenchResult.TurnsCpu(17.04, 8.46, 1.5),
                                new ConnectorBenchResult.TurnsCpu(16.5, 2.25, 1.3),
                                null),
                        ConnectorBenchResult.BulkAgainstCeiling.of(
                                2,
                                19_000.2,
                                20_000.4,
                                new ConnectorBenchResult.TurnsCpu(24.1, 8.3, 1.857),
                                new ConnectorBenchResult.TurnsCpu(null, null, null),
                                new ConnectorBenchResult.RequestTrace(
                                        285,
                                        new ConnectorBenchResult.Wait(0.412, 3.05, 0.8),
                                        new ConnectorBenchResult.Wait(0.031, 0.09, 0.04),
                                        new ConnectorBenchResult.Wait(null, null, null),
                                        0.123,
                                        0.6549))),
                1000,
                500,
                5,
                15,
                List.of("index sink: the backlog ran out"));

        assertEquals(
                String.join(
                        System.lineSeparator(),
                        "one connector task each; measured over 15 s after 5 s of warm-up",
                        "datagen source, unthrottled                                  41,235 records/s",
                        "sink, per-record (--sink-mode index)                          2,610 docs/s",
                        "  CPU while it ran:           Elasticsearch 31.2 ms, worker 120.4 ms per 1,000 docs; 1.20 cores in use by the stack",
                        "sink, bulk (1000 docs / 500 ms), 1 in flight                 11,901 docs/s",
                        "raw _bulk, 1000 docs each, 1 in flight (ceiling)             14,200 docs/s",
                        "bulk sink / ceiling, 1 in flight                                 84 %",
                        "  CPU while the sink ran:     Elasticsearch 17.0 ms, worker 8.5 ms per 1,000 docs; 1.50 cores in use by the stack",
                        "  CPU while the raw load ran: Elasticsearch 16.5 ms, raw load 2.3 ms per 1,000 docs; 1.30 cores in use by the stack",
                        "sink, bulk (1000 docs / 500 ms), 2 in flight                 19,000 docs/s",
                        "raw _bulk, 1000 docs each, 2 in flight (ceiling)             20,000 docs/s",
                        "bulk sink / ceiling, 2 in flight                                 95 %",
                        "  CPU while the sink ran:     Elasticsearch 24.1 ms, worker 8.3 ms per 1,000 docs; 1.86 cores in use by the stack",
                        "  CPU while the raw load ran: Elasticsearch n/a, raw load n/a per 1,000 docs; n/a cores in use by the stack",
                        "  285 requests, median / p99 of each wait: ready->slot 0.41 / 3.05 ms, slot->sent 0.03 / 0.09 ms, sent->answered n/a",
                        "  share of the sink's turns waiting: the task's thread for room 12 %, the aggregator for a slot 65 %",
                        "note: index sink: the backlog ran out"),
                BenchConnectorsCommand.table(result));
    }
}
