package io.kcscale.connectors.camel;

import java.io.IOException;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

/**
 * Whether a record's value can be an Elasticsearch document: a JSON object, as bytes (what
 * ByteArrayConverter hands over: UTF-8 is checked too), as text (StringConverter) or as a map (what
 * JsonConverter with schemas.enable=false makes).
 * Checked before a value joins a request: Elasticsearch's client parses a request as a whole, so one
 * malformed value fails every document beside it.
 */
final class JsonDocuments {

    /**
     * Streaming: tokens are skipped, never built into a tree, so checking costs a fraction of what
     * indexing does. Source text is left out of error locations: the message names the record instead.
     */
    private static final JsonFactory JSON = JsonFactory.builder().disable(JsonFactory.Feature.INTERN_FIELD_NAMES).build()
            .disable(JsonParser.Feature.INCLUDE_SOURCE_IN_LOCATION);

    private JsonDocuments() {
    }

    /** Why {@code value} is not a JSON document, if it is not. */
    static Optional<String> problem(Object value) {
        if (value instanceof Map) {
            return Optional.empty();
        }
        if (value instanceof String) {
            return parse((String) value);
        }
        if (value instanceof byte[]) {
            return parse((byte[]) value);
        }
        return Optional.of("its value is " + (value == null ? "null (a tombstone)" : "a " + value.getClass().getName())
                + ", not JSON: use value.converter=org.apache.kafka.connect.storage.StringConverter for JSON records");
    }

    private static Optional<String> parse(String text) {
        try (JsonParser parser = JSON.createParser(text)) {
            return objectToTheEnd(parser);
        } catch (IOException e) {
            return Optional.of(notJson(e));
        }
    }

    private static Optional<String> parse(byte[] bytes) {
        try (JsonParser parser = JSON.createParser(bytes)) {
            return objectToTheEnd(parser);
        } catch (IOException e) {
            return Optional.of(notJson(e));
        }
    }

    private static Optional<String> objectToTheEnd(JsonParser parser) throws IOException {
        JsonToken first = parser.nextToken();
        if (first != JsonToken.START_OBJECT) {
            return Optional.of(first == null ? "its value is empty, not a JSON object"
                    : "its value is JSON but not an object: it starts with " + parser.getText());
        }
        parser.skipChildren();
        JsonToken after = parser.nextToken();
        return after == null ? Optional.empty() : Optional.of("its value has more after its JSON object, at character "
                + parser.getTokenLocation().getCharOffset());
    }

    private static String notJson(IOException e) {
        if (!(e instanceof JsonParseException)) {
            return "its value is not JSON: " + e.getMessage();
        }
        JsonParseException parse = (JsonParseException) e;
        // text has character offsets; bytes (ByteArrayConverter's values) have byte offsets only
        JsonLocation location = parse.getLocation();
        String at = location.getCharOffset() >= 0 ? " (at character " + location.getCharOffset() + ")"
                : location.getByteOffset() >= 0 ? " (at byte " + location.getByteOffset() + ")" : "";
        return "its value is not JSON: " + parse.getOriginalMessage() + at;
    }
}
