package io.kcscale.scaler.api;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import io.kcscale.scaler.common.Json;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** Reads a request body into a request type, turning every way it can be wrong into a 4xx {@link ApiError}. */
final class JsonBody {

    /** Prediction requests are a few hundred bytes; a measurement list of thousands of points still fits. */
    static final int MAX_BYTES = 1 << 20;

    private JsonBody() {}

    static <T> T read(InputStream body, Class<T> type) throws IOException {
        byte[] bytes = body.readNBytes(MAX_BYTES + 1);
        if (bytes.length > MAX_BYTES) {
            throw new ApiError(413, "request body is larger than " + MAX_BYTES + " bytes", null);
        }
        if (bytes.length == 0) {
            throw new ApiError(400, "the request body must be a JSON object", null);
        }
        try (JsonParser parser = Json.MAPPER.createParser(bytes)) {
            T value = Json.MAPPER.readValue(parser, type);
            if (value == null) {
                throw new ApiError(400, "the request body must be a JSON object", null);
            }
            if (parser.nextToken() != null) {
                throw malformed(parser.currentLocation(), "more content after the JSON object");
            }
            return value;
        } catch (StreamReadException e) {
            throw malformed(e.getLocation(), e.getOriginalMessage());
        } catch (JsonMappingException e) {
            throw mappingError(e);
        }
    }

    private static ApiError malformed(JsonLocation at, String problem) {
        return new ApiError(
                400,
                "malformed JSON at line " + at.getLineNr() + ", column " + at.getColumnNr() + ": " + problem,
                null);
    }

    private static ApiError mappingError(JsonMappingException e) {
        String field = path(e.getPath());
        if (e instanceof UnrecognizedPropertyException unknown) {
            return new ApiError(
                    400,
                    field + " is not a field of this request; known fields: " + unknown.getKnownPropertyIds(),
                    field);
        }
        if (field.isEmpty()) {
            return new ApiError(400, "the request body must be a JSON object", null);
        }
        if (e instanceof MismatchedInputException mismatch && mismatch.getTargetType() != null) {
            return new ApiError(400, field + " must be " + kind(mismatch.getTargetType()), field);
        }
        return new ApiError(400, field + " is not valid: " + e.getOriginalMessage(), field);
    }

    /** {@code measurements[2].tasks} from Jackson's path of references. */
    private static String path(List<JsonMappingException.Reference> references) {
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference reference : references) {
            if (reference.getFieldName() != null) {
                path.append(path.length() == 0 ? "" : ".").append(reference.getFieldName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.toString();
    }

    private static String kind(Class<?> type) {
        if (Number.class.isAssignableFrom(type)) {
            return "a number";
        }
        if (type == String.class) {
            return "a string";
        }
        return List.class.isAssignableFrom(type) ? "an array" : "an object";
    }

    /**
     * The body as {@code type}, and no null anywhere in it; else a 4xx {@link ApiError}. A request field
     * is given or left out, like a CLI flag; JSON null is refused rather than guessed at.
     */
    static <T> T readWithoutNulls(InputStream body, Class<T> type) throws IOException {
        // one byte over the limit is enough for JsonBody to answer 413
        byte[] bytes = body.readNBytes(MAX_BYTES + 1);
        // malformed JSON, unknown fields and wrong types first: Jackson reads a null as an absent field
        T request = read(new ByteArrayInputStream(bytes), type);
        String at = firstNull(read(new ByteArrayInputStream(bytes), JsonNode.class), "");
        if (at != null) {
            boolean field = !at.endsWith("]");
            throw new ApiError(
                    400,
                    at + " must not be null"
                            + (field ? ": give a value, or leave an optional field out to take its default" : ""),
                    at);
        }
        return request;
    }

    /** The path of the first null in {@code node}, named as JsonBody names fields ({@code measurements[2].tasks}). */
    private static String firstNull(JsonNode node, String path) {
        if (node.isNull()) {
            return path;
        }
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                String found =
                        firstNull(field.getValue(), path.isEmpty() ? field.getKey() : path + "." + field.getKey());
                if (found != null) {
                    return found;
                }
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                String found = firstNull(node.get(i), path + "[" + i + "]");
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }
}
