package io.kcscale.scaler.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.scaler.common.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** {@code GET /openapi.json}: the API's OpenAPI 3.0 document, kept as a resource and parsed once at startup. */
public final class OpenApiRoutes implements Routes {

    public static final String PATH = "/openapi.json";
    static final String RESOURCE = "/api/openapi.json";

    private final JsonNode document = load();

    @Override
    public void register(RouteTable routes) {
        routes.get(PATH, call -> document);
    }

    private static JsonNode load() {
        try (InputStream in = OpenApiRoutes.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the classpath");
            }
            return Json.MAPPER.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }
}
