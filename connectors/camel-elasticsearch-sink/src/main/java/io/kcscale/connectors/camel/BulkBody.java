package io.kcscale.connectors.camel;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The body of one {@code _bulk} request as it fills: an index action and the document, one line
 * each, per record, with the records' coordinates in request order. Written here, once, as the
 * documents arrive: Elasticsearch's high-level client parsed every document again and copied it
 * token by token into a new buffer, and built each action line with a builder of its own, which the
 * profile of a bulk sink task showed as its largest cost of its own.
 *
 * <p>Each value has passed {@link JsonDocuments}' check (one JSON object in UTF-8, nothing after it,
 * no control byte but whitespace), so a byte 0x0A or 0x0D can only be a line break between tokens
 * (UTF-8 never uses them inside a character, JSON escapes them inside strings): each becomes a space,
 * which keeps every document on its one line of the body, and no other byte is changed.
 */
final class BulkBody {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] ACTION_END = "\"}}\n".getBytes(StandardCharsets.US_ASCII);
    private static final int FIRST_CAPACITY = 64 * 1024;

    private final byte[] actionStart;
    private final long startedNanos;
    private final List<RecordCoordinates> records;
    private byte[] bytes = new byte[FIRST_CAPACITY];
    private int length;

    /** An empty body whose action lines start with {@code actionStart} (from {@link #actionStart}), begun at {@code startedNanos}. */
    BulkBody(byte[] actionStart, int expectedDocuments, long startedNanos) {
        this.actionStart = actionStart;
        this.startedNanos = startedNanos;
        this.records = new ArrayList<>(expectedDocuments);
    }

    /** {@code {"index":{"_index":"INDEX","_id":"}: the part of every action line before the id, made once per batch. */
    static byte[] actionStart(String index) {
        return ("{\"index\":{\"_index\":\""
                        + new String(JsonStringEncoder.getInstance().quoteAsString(index)) + "\",\"_id\":\"")
                .getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Adds the record at {@code at} as its document: JSON text as it is (line breaks made spaces), a map
     * (what JsonConverter without schemas makes) serialized.
     *
     * @throws IllegalArgumentException naming the record when its value is neither
     */
    void add(RecordCoordinates at, Object value) {
        byte[] source = source(at, value);
        // topic names are ASCII letters, digits, '.', '_' and '-' (Kafka refuses others): the id needs no escaping
        byte[] id = at.documentId().getBytes(StandardCharsets.US_ASCII);
        ensureRoom(actionStart.length + id.length + ACTION_END.length + source.length + 1);
        append(actionStart);
        append(id);
        append(ACTION_END);
        int from = length;
        append(source);
        for (int i = from; i < length; i++) {
            if (bytes[i] == '\n' || bytes[i] == '\r') {
                bytes[i] = ' ';
            }
        }
        bytes[length++] = '\n';
        records.add(at);
    }

    @SuppressWarnings("unchecked")
    private static byte[] source(RecordCoordinates at, Object value) {
        byte[] source;
        if (value instanceof String) {
            source = ((String) value).getBytes(StandardCharsets.UTF_8);
        } else if (value instanceof byte[]) {
            source = (byte[]) value;
        } else if (value instanceof Map) {
            try {
                source = JSON.writeValueAsBytes((Map<String, ?>) value);
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException(
                        "the record at " + at.described() + " cannot be indexed: " + e.getOriginalMessage(), e);
            }
        } else {
            throw new IllegalArgumentException("the record at " + at.described() + " cannot be indexed: "
                    + JsonDocuments.problem(value).orElse("its value is not JSON"));
        }
        return source;
    }

    /** The records, in the order of their documents (an answer's item {@code i} is record {@code i}). */
    List<RecordCoordinates> records() {
        return records;
    }

    /** When its first document came, on the clock of {@link BulkIndexAggregation}. */
    long startedNanos() {
        return startedNanos;
    }

    int documents() {
        return records.size();
    }

    /** The body's bytes: {@link #length()} of them, from the start. */
    byte[] bytes() {
        return bytes;
    }

    int length() {
        return length;
    }

    private void append(byte[] part) {
        System.arraycopy(part, 0, bytes, length, part.length);
        length += part.length;
    }

    private void ensureRoom(int more) {
        if (length + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
        }
    }
}
