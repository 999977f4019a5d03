package io.kcscale.connectors.camel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The per-record task on a real Camel route, against a fake Elasticsearch. */
class PerRecordSinkTaskTest {

    private final FakeElasticsearch elasticsearch = new FakeElasticsearch();
    private final PerRecordSinkTask task = new PerRecordSinkTask();

    PerRecordSinkTaskTest() throws IOException {
    }

    @AfterEach
    void stop() {
        task.stop();
        elasticsearch.close();
    }

    private void start(Map<String, String> more) {
        Map<String, String> config = new HashMap<>(Map.of("topics", "stocks", "camel.sink.url",
                "elasticsearch-rest://local?hostAddresses=" + elasticsearch.hostAndPort() + "&operation=Index&indexName=stocks"));
        config.putAll(more);
        task.start(config);
    }

    @Test
    void eachDocumentIsIdentifiedByItsRecordSoARedeliveryOverwritesIt() {
        start(Map.of());

        task.put(List.of(Records.text("stocks", 3, 40, "{\"price\":1.5}"), Records.trade("stocks", 3, 41)));
        task.put(List.of(Records.text("stocks", 3, 40, "{\"price\":1.5}")));

        assertEquals(List.of("stocks-3-40", "stocks-3-41", "stocks-3-40"), elasticsearch.indexedIds);
    }

    @Test
    void aMalformedRecordFailsTheTaskBeforeAnyOfItsBatchIsSent() {
        start(Map.of());

        ConnectException e = assertThrows(ConnectException.class,
                () -> task.put(List.of(Records.text("stocks", 3, 40, "{\"price\":1.5}"), Records.text("stocks", 3, 41, "not json{"))));

        assertTrue(e.getMessage().startsWith("the record at topic stocks, partition 3, offset 41 cannot be indexed: its value is not JSON"),
                e.getMessage());
        assertEquals(List.of(), elasticsearch.indexedIds);
    }

    @Test
    void withIgnoreTheRestOfTheBatchIsIndexed() {
        start(Map.of("kcscale.malformed.records", "ignore"));

        task.put(List.of(Records.text("stocks", 3, 40, "not json{"), Records.text("stocks", 3, 41, "{\"price\":1.5}")));

        assertEquals(List.of("stocks-3-41"), elasticsearch.indexedIds);
    }
}
