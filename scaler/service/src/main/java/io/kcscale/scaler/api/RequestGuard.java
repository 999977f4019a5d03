package io.kcscale.scaler.api;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.server.Request;

/**
 * Keeps other web sites' pages out. A browser sends a "simple" cross-site POST (text/plain, no
 * preflight) and, after DNS rebinding, reads any route under the attacker's host name; so a request
 * must name the scaler in its Host, must not come from a page of another origin, and a mutating
 * request must say its body is JSON, which no page can send to another site without a preflight.
 */
final class RequestGuard {

    private static final Pattern IPV4 =
            Pattern.compile("(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");
    private static final Pattern HOST = Pattern.compile("(\\[[0-9a-f:.]+]|[^:\\[\\]]+)(?::(\\d{1,5}))?");

    private final ApiAccess access;
    private final int port;

    /** @param port the port the scaler listens on */
    RequestGuard(ApiAccess access, int port) {
        this.access = access;
        this.port = port;
    }

    /**
     * 421 unless the Host header names this scaler, 403 for a page of an origin neither its own nor
     * allowed.
     *
     * @return the request's origin when it is an allowed other one (its answer then carries CORS headers)
     */
    Optional<String> admit(Request request) {
        HttpFields headers = request.getHeaders();
        String host = Optional.ofNullable(headers.get("Host"))
                .map(h -> h.strip().toLowerCase(Locale.ROOT))
                .orElse("");
        Matcher parts = HOST.matcher(host);
        if (!parts.matches() || !namesThisScaler(host, parts.group(1), parts.group(2))) {
            throw new ApiError(
                    421,
                    (host.isEmpty() ? "the request has no Host header" : "Host " + host + " does not name this scaler")
                            + ": call it by localhost or an IP address on port " + port
                            + ", or allow the name with --allowed-host",
                    null);
        }
        String origin = headers.get("Origin");
        if (origin == null) {
            return Optional.empty();
        }
        String normalized = comparable(origin);
        String own =
                "http://" + parts.group(1) + ":" + (parts.group(2) == null ? 80 : Integer.parseInt(parts.group(2)));
        if (own.equals(normalized)) {
            return Optional.empty();
        }
        if (access.allowedOrigins().contains(normalized)) {
            return Optional.of(origin);
        }
        throw new ApiError(
                403,
                "a page of " + origin + " may not call this scaler: only its own page may"
                        + " (allow another origin with --allowed-origin)",
                null);
    }

    /**
     * 415 for a POST or PUT, or a DELETE with a body, whose body is not declared JSON: the types a page
     * may send cross-site without a preflight (text/plain, forms) are never accepted.
     */
    static void requireJson(Request request) {
        HttpFields headers = request.getHeaders();
        String method = request.getMethod();
        boolean hasBody = headers.contains("Transfer-Encoding")
                || !Optional.ofNullable(headers.get("Content-Length"))
                        .orElse("0")
                        .strip()
                        .equals("0");
        if (!(method.equals("POST") || method.equals("PUT") || hasBody)) {
            return;
        }
        String type = Optional.ofNullable(headers.get("Content-Type")).orElse("");
        if (!type.split(";", 2)[0].strip().equalsIgnoreCase("application/json")) {
            throw new ApiError(
                    415,
                    method + " takes a JSON body: send Content-Type: application/json"
                            + (type.isEmpty() ? "" : ", not " + type),
                    null);
        }
    }

    /**
     * A DNS-rebinding page reaches the scaler under the attacker's name, never as localhost or an IP
     * address: those, on the port the scaler listens on, and the names allowed are this scaler.
     */
    private boolean namesThisScaler(String host, String name, String hostPort) {
        if (access.allowedHosts().contains(host)) {
            return true;
        }
        boolean portMatches = hostPort == null ? port == 80 : Integer.parseInt(hostPort) == port;
        if (access.allowedHosts().contains(name)) {
            // a reverse proxy on its default port sends the bare name
            return hostPort == null || portMatches;
        }
        return portMatches && (name.equals("localhost") || IPV4.matcher(name).matches() || name.startsWith("["));
    }

    private static String comparable(String origin) {
        try {
            return ApiAccess.origin(origin);
        } catch (IllegalArgumentException e) {
            // "null" (a sandboxed or file: page) or garbage: equal to no origin the scaler accepts
            return origin;
        }
    }
}
