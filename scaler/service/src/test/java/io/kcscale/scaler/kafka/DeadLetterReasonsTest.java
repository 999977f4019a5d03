package io.kcscale.scaler.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

class DeadLetterReasonsTest {

    private static ConsumerRecord<byte[], byte[]> deadLetter(String... headers) {
        ConsumerRecord<byte[], byte[]> r = new ConsumerRecord<>("stocks-dlq", 0, 7L, null, new byte[0]);
        for (int i = 0; i < headers.length; i += 2) {
            r.headers().add(headers[i], headers[i + 1].getBytes(StandardCharsets.UTF_8));
        }
        return r;
    }

    @Test
    void theReasonNamesTheExceptionAndTheRecordItWasAbout() {
        assertEquals(
                "org.apache.kafka.connect.errors.DataException: not a JSON object (record stocks-3@512)",
                DeadLetterReasons.reason(deadLetter(
                        DeadLetterReasons.EXCEPTION_CLASS,
                        "org.apache.kafka.connect.errors.DataException",
                        DeadLetterReasons.EXCEPTION_MESSAGE,
                        "not a JSON object",
                        DeadLetterReasons.ORIGIN_TOPIC,
                        "stocks",
                        DeadLetterReasons.ORIGIN_PARTITION,
                        "3",
                        DeadLetterReasons.ORIGIN_OFFSET,
                        "512")));
    }

    @Test
    void withoutContextHeadersTheReasonSaysWhatToEnable() {
        assertEquals(
                "not recorded: set errors.deadletterqueue.context.headers.enable=true on the connector to see why",
                DeadLetterReasons.reason(deadLetter()));
    }

    @Test
    void aHostileMessageBecomesOneShortLine() {
        // a record's text reaches the header: line breaks, terminal escapes and bidi overrides are not passed on
        String reason = DeadLetterReasons.reason(deadLetter(
                DeadLetterReasons.EXCEPTION_MESSAGE, "bad\r\nINFO forged line \u001b[31mred\u202e" + "x".repeat(1000)));
        assertEquals(DeadLetterReasons.REASON_CHARS, reason.codePointCount(0, reason.length()));
        assertEquals("bad INFO forged line [31mred x", reason.substring(0, 30));
        assertEquals('…', reason.charAt(reason.length() - 1));
        assertEquals(
                "😀 ok",
                DeadLetterReasons.oneLine("😀\u200b ok"),
                "format characters go; a surrogate pair stays whole");
    }
}
