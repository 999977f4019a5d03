package io.kcscale.scaler.api;

import io.kcscale.scaler.common.Json;
import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** Writes an answer whole, with its length: JSON unless it is a {@link RawBody}; errors as {@code {"error", "field"}}. */
final class Responses {

    private Responses() {}

    static void send(Response response, Callback callback, int status, Object body) {
        byte[] bytes;
        String type;
        if (body instanceof RawBody raw) {
            bytes = raw.bytes();
            type = raw.contentType();
        } else {
            bytes = Json.bytes(body);
            type = "application/json; charset=utf-8";
        }
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
        response.write(true, ByteBuffer.wrap(bytes), callback);
    }

    /** The answer to {@code error}, with the headers it carries. */
    static void send(Response response, Callback callback, ApiError error) {
        error.headers().forEach((name, value) -> response.getHeaders().put(name, value));
        send(response, callback, error.status(), error(error.getMessage(), error.field()));
    }

    static Map<String, String> error(String message, String field) {
        Map<String, String> error = new LinkedHashMap<>();
        error.put("error", message);
        if (field != null) {
            error.put("field", field);
        }
        return error;
    }
}
