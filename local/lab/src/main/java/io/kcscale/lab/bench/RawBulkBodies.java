package io.kcscale.lab.bench;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The raw load's request bodies: for each record, an index action with the id the sink gives it
 * ({@code topic-partition-offset}) and its value as the document, so Elasticsearch is handed the very
 * documents, ids and batches the bulk sink hands it.
 */
final class RawBulkBodies {

    private RawBulkBodies() {}

    /** One {@code _bulk} body of {@code records} into {@code index}; records without a value are left out. */
    static byte[] body(String index, List<ConsumerRecord<byte[], byte[]>> records) {
        ByteArrayOutputStream body = new ByteArrayOutputStream(records.size() * 256);
        for (ConsumerRecord<byte[], byte[]> record : records) {
            if (record.value() == null) {
                continue;
            }
            String action = "{\"index\":{\"_index\":\"" + index + "\",\"_id\":\"" + record.topic() + "-"
                    + record.partition() + "-" + record.offset() + "\"}}\n";
            body.writeBytes(action.getBytes(StandardCharsets.UTF_8));
            byte[] document = record.value().clone();
            // as the sink does: a line break inside a document would end its line of the body
            for (int i = 0; i < document.length; i++) {
                if (document[i] == '\n' || document[i] == '\r') {
                    document[i] = ' ';
                }
            }
            body.writeBytes(document);
            body.write('\n');
        }
        return body.toByteArray();
    }
}
