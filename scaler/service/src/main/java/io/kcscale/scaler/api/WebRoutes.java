package io.kcscale.scaler.api;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code GET /} and {@code GET /assets/{file}}: the live web view, static files kept in the jar under
 * {@code web/}. The page calls the same REST API as the CLI; it needs nothing from the network.
 */
final class WebRoutes implements Routes {

    static final String PAGE = "/";
    static final String ASSETS = "/assets/{file}";
    private static final String ROOT = "/web/";
    /** A bare file name with a known type: nothing outside web/assets can be named. */
    private static final Pattern ASSET = Pattern.compile("[a-zA-Z][a-zA-Z0-9-]*\\.(js|css)");

    private static final Map<String, String> TYPES = Map.of(
            "js", "text/javascript; charset=utf-8",
            "css", "text/css; charset=utf-8");

    @Override
    public void register(RouteTable routes) {
        routes.get(PAGE, call -> new RawBody("text/html; charset=utf-8", read("index.html")));
        routes.get(ASSETS, call -> {
            String file = call.pathParameter("file");
            Matcher name = ASSET.matcher(file);
            byte[] bytes = name.matches() ? read("assets/" + file) : null;
            if (bytes == null) {
                throw new ApiError(404, "no asset " + file, null);
            }
            return new RawBody(TYPES.get(name.group(1)), bytes);
        });
    }

    /** The resource's bytes, or null when the jar has no such file. */
    private static byte[] read(String path) {
        try (InputStream in = WebRoutes.class.getResourceAsStream(ROOT + path)) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + ROOT + path, e);
        }
    }
}
