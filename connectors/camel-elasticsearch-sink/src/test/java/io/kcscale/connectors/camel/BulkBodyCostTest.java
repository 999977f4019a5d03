package io.kcscale.connectors.camel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import org.elasticsearch.action.bulk.BulkRequest;
import org.elasticsearch.action.bulk.BulkResponse;
import org.elasticsearch.action.index.IndexRequest;
import org.elasticsearch.client.Request;
import org.elasticsearch.common.xcontent.DeprecationHandler;
import org.elasticsearch.common.xcontent.NamedXContentRegistry;
import org.elasticsearch.common.xcontent.XContentParser;
import org.elasticsearch.common.xcontent.XContentType;
import org.junit.jupiter.api.Test;

/**
 * The CPU a bulk request costs the sink per document, written and read our way ({@link BulkBody},
 * {@link BulkAnswer}) against Elasticsearch's high-level client's way (which the producer used
 * before), in this thread's CPU time so other work on the machine does not move it: the figures in
 * docs/sink.md, and a guard that ours stays well below.
 */
class BulkBodyCostTest {

    private static final int DOCUMENTS = 1000;
    private static final int BATCHES = 100;

    @Test
    void ourBodyAndAnswerCostAFractionOfTheHighLevelClients() throws Exception {
        String[] documents = new String[DOCUMENTS];
        StringBuilder answer = new StringBuilder("{\"took\":30,\"errors\":false,\"items\":[");
        for (int i = 0; i < DOCUMENTS; i++) {
            documents[i] = "{\"side\":\"BUY\",\"quantity\":" + (i * 7 % 5000) + ",\"symbol\":\"ZVZ" + (i % 50)
                    + "\",\"price\":"
                    + (i % 997) + ".25,\"account\":\"ABC" + (i % 13) + "\",\"userid\":\"User_" + (i % 9)
                    + "\",\"produced_at_ms\":"
                    + (1732550000000L + i) + "}";
            answer.append(i == 0 ? "" : ",")
                    .append("{\"index\":{\"_index\":\"stocks\",\"_type\":\"_doc\",\"_id\":\"stocks-3-")
                    .append(i)
                    .append(
                            "\",\"_version\":1,\"result\":\"created\",\"_shards\":{\"total\":1,\"successful\":1,\"failed\":0},")
                    .append("\"_seq_no\":")
                    .append(i)
                    .append(",\"_primary_term\":1,\"status\":201}}");
        }
        byte[] answerBytes = answer.append("]}").toString().getBytes(StandardCharsets.UTF_8);
        Method highLevelBody = Class.forName("org.elasticsearch.client.RequestConverters")
                .getDeclaredMethod("bulk", BulkRequest.class);
        highLevelBody.setAccessible(true);
        byte[] actionStart = BulkBody.actionStart("stocks");

        // the first round warms both ways up; the second is measured
        double[] perDocument = null;
        for (int round = 0; round < 2; round++) {
            perDocument = new double[4];
            for (int batch = 0; batch < BATCHES; batch++) {
                perDocument[0] += cpuNanos(() -> {
                    BulkRequest request = new BulkRequest();
                    for (int i = 0; i < DOCUMENTS; i++) {
                        request.add(
                                new IndexRequest("stocks").id("stocks-3-" + i).source(documents[i], XContentType.JSON));
                    }
                    assertTrue(((Request) highLevelBody.invoke(null, request))
                                    .getEntity()
                                    .getContentLength()
                            > 0);
                });
                perDocument[1] += cpuNanos(() -> {
                    try (XContentParser parser = XContentType.JSON
                            .xContent()
                            .createParser(
                                    NamedXContentRegistry.EMPTY,
                                    DeprecationHandler.THROW_UNSUPPORTED_OPERATION,
                                    answerBytes)) {
                        assertEquals(
                                DOCUMENTS, BulkResponse.fromXContent(parser).getItems().length);
                    }
                });
                perDocument[2] += cpuNanos(() -> {
                    BulkBody body = new BulkBody(actionStart, DOCUMENTS, 0);
                    for (int i = 0; i < DOCUMENTS; i++) {
                        body.add(new RecordCoordinates("stocks", 3, i), documents[i]);
                    }
                    assertTrue(body.length() > 0);
                });
                perDocument[3] += cpuNanos(() -> assertEquals(
                        DOCUMENTS,
                        BulkAnswer.read(new ByteArrayInputStream(answerBytes), DOCUMENTS)
                                .items()));
            }
            for (int i = 0; i < perDocument.length; i++) {
                perDocument[i] /= 1000.0 * BATCHES * DOCUMENTS;
            }
        }
        System.out.printf(
                "[measure] CPU per document of a 1,000-document bulk request: high-level client body %.2f us, answer %.2f us; "
                        + "BulkBody %.2f us, BulkAnswer %.2f us%n",
                perDocument[0], perDocument[1], perDocument[2], perDocument[3]);
        assertTrue(
                perDocument[2] + perDocument[3] < (perDocument[0] + perDocument[1]) / 2,
                "writing and reading a bulk request our way should cost well under half the high-level client's way");
    }

    private interface Work {
        void run() throws Exception;
    }

    private static long cpuNanos(Work work) throws Exception {
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        long from = cpu.getCurrentThreadCpuTime();
        work.run();
        return cpu.getCurrentThreadCpuTime() - from;
    }
}
