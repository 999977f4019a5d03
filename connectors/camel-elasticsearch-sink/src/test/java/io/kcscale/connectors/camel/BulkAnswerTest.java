package io.kcscale.connectors.camel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class BulkAnswerTest {

    /** As Elasticsearch 7.17 answers: an indexed item, a mapping error with its cause, a full write queue. */
    private static final String ANSWER = """
            {"took":3,"errors":true,"items":[
             {"index":{"_index":"stocks","_type":"_doc","_id":"stocks-0-1","_version":1,"result":"created",
              "_shards":{"total":1,"successful":1,"failed":0},"_seq_no":0,"_primary_term":1,"status":201}},
             {"index":{"_index":"stocks","_type":"_doc","_id":"stocks-0-2","status":400,"error":{"type":"mapper_parsing_exception",
              "reason":"failed to parse field [price] of type [double]","caused_by":{"type":"number_format_exception",
              "reason":"For input string: \\"x\\""}}}},
             {"index":{"_index":"stocks","_type":"_doc","_id":"stocks-0-3","status":429,"error":{"type":"es_rejected_execution_exception",
              "reason":"rejected execution"}}}]}
            """;

    @Test
    void eachItemHasItsStatusAndAFailedOneItsReasonWithItsCause() throws IOException {
        BulkAnswer answer = read(ANSWER, 3);

        assertEquals(3, answer.items());
        assertFalse(answer.failed(0));
        assertEquals(201, answer.status(0));
        assertTrue(answer.failed(1));
        assertEquals(
                "mapper_parsing_exception: failed to parse field [price] of type [double] "
                        + "(caused by number_format_exception: For input string: \"x\")",
                answer.reason(1));
        assertEquals(429, answer.status(2));
        assertEquals("es_rejected_execution_exception: rejected execution", answer.reason(2));
    }

    @Test
    void anAnswerWithOtherThanOneItemPerDocumentIsNoAnswer() {
        IOException fewer = assertThrows(IOException.class, () -> read(ANSWER, 4));
        assertEquals("Elasticsearch answered a bulk request of 4 documents with 3 items", fewer.getMessage());
        IOException more = assertThrows(IOException.class, () -> read(ANSWER, 2));
        assertEquals("Elasticsearch answered a bulk request of 2 documents with more items", more.getMessage());
        assertThrows(IOException.class, () -> read("[]", 0));
    }

    private static BulkAnswer read(String answer, int documents) throws IOException {
        return BulkAnswer.read(new ByteArrayInputStream(answer.getBytes(StandardCharsets.UTF_8)), documents);
    }
}
