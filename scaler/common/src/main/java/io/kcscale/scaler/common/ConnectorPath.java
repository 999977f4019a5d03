package io.kcscale.scaler.common;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** How a connector's name goes into a URL path, for Connect's REST API and the scaler's alike. */
public final class ConnectorPath {

    private ConnectorPath() {}

    /**
     * The name as one path segment, percent-encoded: names may hold spaces, slashes or other reserved
     * characters, and a space is {@code %20} (a form's {@code +} would be taken literally in a path).
     */
    public static String segment(String name) {
        return URLEncoder.encode(name, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
