package io.kcscale.connectors.camel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

class CoordinatesHeadersTest {

    @Test
    void addsTheOriginalCoordinatesAsCamelHeadersAndKeepsTheRecord() {
        SinkRecord renamed = Records.trade("stocks", 3, 1234)
                .newRecord("renamed-by-an-earlier-transform", 0, null, "k", null, "v", 99L);
        renamed.headers().addString("existing", "kept");

        SinkRecord out;
        try (CoordinatesHeaders transform = new CoordinatesHeaders()) {
            out = transform.apply(renamed);
        }

        assertEquals(
                "stocks-3-1234",
                out.headers().lastWithName("CamelHeader.kcscale.coordinates").value());
        assertEquals("kept", out.headers().lastWithName("existing").value());
        assertEquals("renamed-by-an-earlier-transform", out.topic());
        assertEquals("v", out.value());
        assertEquals(99L, out.timestamp());
        assertEquals(1, renamed.headers().size(), "the input record is left as it was");
    }

    @Test
    void coordinatesParseBackFromTheHeaderWhateverDashesTheTopicHolds() {
        assertEquals(
                new RecordCoordinates("my-topic-1", 12, 9_000_000_000L),
                RecordCoordinates.fromHeaders(Map.of(RecordCoordinates.HEADER, "my-topic-1-12-9000000000")));
        for (Object bad : new Object[] {"stocks-12", "stocks-x-4", "-1-2", 42}) {
            IllegalArgumentException e = assertThrows(
                    IllegalArgumentException.class,
                    () -> RecordCoordinates.fromHeaders(Map.of(RecordCoordinates.HEADER, bad)));
            assertTrue(
                    e.getMessage().contains("add the transform " + CoordinatesHeaders.class.getName()), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> RecordCoordinates.fromHeaders(Map.of()));
    }

    @Test
    void theDocumentIdIsTopicPartitionOffset() {
        assertEquals(
                "stocks-3-1234",
                RecordCoordinates.of(Records.trade("stocks", 3, 1234)).documentId());
    }
}
