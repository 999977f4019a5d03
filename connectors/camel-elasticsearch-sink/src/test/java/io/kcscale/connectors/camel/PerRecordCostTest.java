package io.kcscale.connectors.camel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.Map;
import org.apache.camel.component.elasticsearch.ElasticsearchConstants;
import org.apache.camel.kafkaconnector.CamelSinkTask;
import org.junit.jupiter.api.Test;

/**
 * The CPU the task's thread spends per record in per-record mode, through {@link PerRecordSinkTask}
 * against the stock Camel task and producer (a new high-level client, an {@code IndexRequest} and an
 * {@code IndexResponse} per record) sending the same documents with the same ids to the same fake
 * Elasticsearch, in this thread's CPU time so other work on the machine does not move it: a guard that
 * ours stays well below, and the figure in docs/performance.md.
 */
class PerRecordCostTest {

    private static final int RECORDS = 500;

    @Test
    void aRecordCostsTheTaskThreadLessThanHalfOfWhatTheStockProducerCosts() throws Exception {
        try (FakeElasticsearch elasticsearch = new FakeElasticsearch()) {
            Map<String, String> config = Map.of(
                    "topics",
                    "stocks",
                    "camel.sink.url",
                    "elasticsearch-rest://local?hostAddresses=" + elasticsearch.hostAndPort()
                            + "&operation=Index&indexName=stocks");
            CamelSinkTask stock = new CamelSinkTask();
            PerRecordSinkTask ours = new PerRecordSinkTask();
            stock.start(config);
            ours.start(config);
            try {
                // the first round warms both up; the second is measured
                double[] perRecord = null;
                for (int round = 0; round < 2; round++) {
                    perRecord = new double[2];
                    for (int i = 0; i < RECORDS; i++) {
                        Document document = Records.document(Records.trade("stocks", round, i));
                        perRecord[0] += cpuNanos(() ->
                                stock.put(List.of(RecordForCamel.of(document, ElasticsearchConstants.PARAM_INDEX_ID))));
                        perRecord[1] += cpuNanos(() -> ours.put(List.of(document.record())));
                    }
                }
                assertEquals(4 * RECORDS, elasticsearch.indexedIds.size(), "every record indexed, by both");
                System.out.printf(
                        "[measure] the task thread's CPU per record: stock producer %.1f us, PerRecordSinkTask %.1f us%n",
                        perRecord[0] / 1000 / RECORDS, perRecord[1] / 1000 / RECORDS);
                assertTrue(
                        perRecord[1] < perRecord[0] / 2,
                        "a record should cost the task's thread well under half of what the stock " + "producer costs: "
                                + perRecord[1] / 1000 / RECORDS + " against " + perRecord[0] / 1000 / RECORDS + " us");
            } finally {
                stock.stop();
                ours.stop();
            }
        }
    }

    private static long cpuNanos(Runnable work) {
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        long from = cpu.getCurrentThreadCpuTime();
        work.run();
        return cpu.getCurrentThreadCpuTime() - from;
    }
}
