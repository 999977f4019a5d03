package io.kcscale.scaler.api;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A request's query string as name → value, refusing names the route does not take and names given twice (400). */
final class QueryParameters {

    private QueryParameters() {}

    static Map<String, String> parse(String rawQuery, List<String> known) {
        Map<String, String> values = new LinkedHashMap<>();
        if (rawQuery == null || rawQuery.isEmpty()) {
            return values;
        }
        for (String pair : rawQuery.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
            if (!known.contains(name)) {
                throw new ApiError(
                        400, name + " is not a query parameter of this request; known parameters: " + known, name);
            }
            if (values.put(name, value) != null) {
                throw new ApiError(400, name + " is given more than once", name);
            }
        }
        return values;
    }

    private static String decode(String text) {
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new ApiError(400, "the query string is not valid URL encoding: " + text, null);
        }
    }
}
