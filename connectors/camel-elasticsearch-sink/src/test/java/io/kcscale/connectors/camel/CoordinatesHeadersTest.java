package io.kcscale.connectors.camel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

class CoordinatesHeadersTest {

    @Test
    void addsTheOriginalCoordinatesAsCamelHeadersAndKeepsTheRecord() {
        SinkRecord renamed = Records.trade("stocks", 3, 1234).newRecord("renamed-by-an-earlier-transform", 0, null, "k",
                null, "v", 99L);
        renamed.headers().addString("existing", "kept");

        SinkRecord out;
        try (CoordinatesHeaders transform = new CoordinatesHeaders()) {
            out = transform.apply(renamed);
        }

        assertEquals("stocks", out.headers().lastWithName("CamelHeader.kcscale.topic").value());
        assertEquals(3, out.headers().lastWithName("CamelHeader.kcscale.partition").value());
        assertEquals(1234L, out.headers().lastWithName("CamelHeader.kcscale.offset").value());
        assertEquals("kept", out.headers().lastWithName("existing").value());
        assertEquals("renamed-by-an-earlier-transform", out.topic());
        assertEquals("v", out.value());
        assertEquals(99L, out.timestamp());
        assertEquals(1, renamed.headers().size(), "the input record is left as it was");
    }

    @Test
    void theDocumentIdIsTopicPartitionOffset() {
        assertEquals("stocks-3-1234", RecordCoordinates.of(Records.trade("stocks", 3, 1234)).documentId());
    }
}
