package io.kcscale.connectors.camel;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

/**
 * Whether a record's value can be an Elasticsearch document, and its bytes if so: one JSON object in
 * UTF-8 ({@link Utf8Json}), as bytes (what ByteArrayConverter hands over, indexed byte for byte), as
 * text (StringConverter; encoded to UTF-8) or as a map (what JsonConverter with schemas.enable=false
 * makes; serialized). Checked before a value joins a request: Elasticsearch's client parses a request
 * as a whole, so one malformed value fails every document beside it.
 */
final class JsonDocuments {

    /** A value's document bytes, or why it has none: exactly one of the two is set. */
    record Checked(byte[] bytes, String problem) {

        static Checked document(byte[] bytes) {
            return new Checked(bytes, null);
        }

        static Checked not(String problem) {
            return new Checked(null, problem);
        }
    }

    /**
     * Streaming: tokens are skipped, never built into a tree, so checking costs a fraction of what
     * indexing does. Source text is left out of error locations: the message names the record instead.
     */
    private static final JsonFactory JSON = JsonFactory.builder()
            .disable(JsonFactory.Feature.INTERN_FIELD_NAMES)
            .build()
            .disable(JsonParser.Feature.INCLUDE_SOURCE_IN_LOCATION);

    private static final ObjectMapper MAPS = new ObjectMapper();

    private JsonDocuments() {}

    /** Why {@code value} is not a JSON document, if it is not. */
    static Optional<String> problem(Object value) {
        return Optional.ofNullable(check(value).problem());
    }

    static Checked check(Object value) {
        if (value instanceof Map) {
            try {
                return Checked.document(MAPS.writeValueAsBytes(value));
            } catch (JsonProcessingException e) {
                return Checked.not("its value cannot be written as JSON: " + e.getOriginalMessage());
            }
        }
        if (value instanceof String) {
            return utf8((String) value);
        }
        if (value instanceof byte[]) {
            return parse((byte[]) value);
        }
        return Checked.not(
                "its value is "
                        + (value == null
                                ? "null (a tombstone)"
                                : "a " + value.getClass().getName())
                        + ", not JSON: use value.converter=org.apache.kafka.connect.converters.ByteArrayConverter for JSON records");
    }

    /** Text as UTF-8: a lone surrogate has no UTF-8 form (String.getBytes would write '?' in its place). */
    private static Checked utf8(String text) {
        try {
            ByteBuffer encoded = StandardCharsets.UTF_8
                    .newEncoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .encode(CharBuffer.wrap(text));
            byte[] bytes = new byte[encoded.remaining()];
            encoded.get(bytes);
            return parse(bytes);
        } catch (CharacterCodingException e) {
            return Checked.not("its value holds a lone UTF-16 surrogate, which UTF-8 cannot carry");
        }
    }

    private static Checked parse(byte[] bytes) {
        Optional<String> notUtf8 = Utf8Json.problem(bytes);
        if (notUtf8.isPresent()) {
            return Checked.not(notUtf8.get());
        }
        // Utf8Json has ruled out zero bytes and byte order marks, so Jackson's detection can only find UTF-8
        try (JsonParser parser = JSON.createParser(bytes)) {
            Optional<String> problem = objectToTheEnd(parser);
            return problem.isPresent() ? Checked.not(problem.get()) : Checked.document(bytes);
        } catch (IOException e) {
            return Checked.not(notJson(e));
        }
    }

    private static Optional<String> objectToTheEnd(JsonParser parser) throws IOException {
        JsonToken first = parser.nextToken();
        if (first != JsonToken.START_OBJECT) {
            return Optional.of(
                    first == null
                            ? "its value is empty, not a JSON object"
                            : "its value is JSON but not an object: it starts with " + parser.getText());
        }
        parser.skipChildren();
        JsonToken after = parser.nextToken();
        return after == null
                ? Optional.empty()
                : Optional.of("its value has more after its JSON object, at byte "
                        + parser.getTokenLocation().getByteOffset());
    }

    private static String notJson(IOException e) {
        if (!(e instanceof JsonParseException)) {
            return "its value is not JSON: " + e.getMessage();
        }
        JsonParseException parse = (JsonParseException) e;
        JsonLocation location = parse.getLocation();
        return "its value is not JSON: " + parse.getOriginalMessage()
                + (location.getByteOffset() >= 0 ? " (at byte " + location.getByteOffset() + ")" : "");
    }
}
