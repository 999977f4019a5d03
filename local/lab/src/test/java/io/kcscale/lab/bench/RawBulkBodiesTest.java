package io.kcscale.lab.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

class RawBulkBodiesTest {

    @Test
    void eachRecordBecomesTheSinksActionAndDocumentWithItsCoordinatesAsId() {
        byte[] body = RawBulkBodies.body(
                "bench-raw-2",
                List.of(record(3, 41, "{\"symbol\":\"ACME\"}"), record(3, 42, "{\"a\":\n1}"), record(7, 0, null)));

        assertEquals(
                "{\"index\":{\"_index\":\"bench-raw-2\",\"_id\":\"stocks-3-41\"}}\n"
                        + "{\"symbol\":\"ACME\"}\n"
                        + "{\"index\":{\"_index\":\"bench-raw-2\",\"_id\":\"stocks-3-42\"}}\n"
                        + "{\"a\": 1}\n",
                new String(body, StandardCharsets.UTF_8),
                "a line break inside a document becomes a space; a record without a value is left out");
    }

    private static ConsumerRecord<byte[], byte[]> record(int partition, long offset, String value) {
        return new ConsumerRecord<>(
                "stocks", partition, offset, null, value == null ? null : value.getBytes(StandardCharsets.UTF_8));
    }
}
