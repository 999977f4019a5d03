package io.kcscale.scaler.api;

import java.net.URI;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Who besides the scaler's own page and plain HTTP clients may call it: web origins
 * ({@code --allowed-origin}, e.g. {@code https://ops.example.com}) and the names it may be reached by
 * ({@code --allowed-host}, {@code name} or {@code name:port}, e.g. a compose service name or a proxy's).
 */
public record ApiAccess(Set<String> allowedOrigins, Set<String> allowedHosts) {

    /** Only the scaler's own origin, reached by localhost or an IP address. */
    public static final ApiAccess OWN = new ApiAccess(Set.of(), Set.of());

    /** @throws IllegalArgumentException naming the first value that is not an origin or a host */
    public ApiAccess {
        allowedOrigins = allowedOrigins.stream().map(ApiAccess::origin).collect(Collectors.toUnmodifiableSet());
        allowedHosts = allowedHosts.stream().map(ApiAccess::host).collect(Collectors.toUnmodifiableSet());
    }

    /** {@code scheme://host:port}, lower case with the port spelled out, as origins are compared. */
    static String origin(String value) {
        try {
            URI uri = new URI(value.strip());
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            boolean bare = (uri.getRawPath() == null
                            || uri.getRawPath().isEmpty()
                            || uri.getRawPath().equals("/"))
                    && uri.getRawQuery() == null
                    && uri.getRawFragment() == null
                    && uri.getRawUserInfo() == null;
            if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null || !bare) {
                throw new IllegalArgumentException();
            }
            int port = uri.getPort() != -1 ? uri.getPort() : scheme.equals("https") ? 443 : 80;
            return scheme + "://" + uri.getHost().toLowerCase(Locale.ROOT) + ":" + port;
        } catch (java.net.URISyntaxException | IllegalArgumentException e) {
            throw new IllegalArgumentException("--allowed-origin must be an origin such as https://ops.example.com:8443"
                    + " (scheme, host, optional port, no path), got " + value);
        }
    }

    private static String host(String value) {
        String host = value.strip().toLowerCase(Locale.ROOT);
        if (!host.matches("[a-z0-9._-]+(:\\d{1,5})?|\\[[0-9a-f:.]+](:\\d{1,5})?")) {
            throw new IllegalArgumentException("--allowed-host must be a host name, optionally with :port"
                    + " (e.g. scaler or scaler.example.com:443), got " + value);
        }
        return host;
    }
}
