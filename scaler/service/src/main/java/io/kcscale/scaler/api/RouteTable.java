package io.kcscale.scaler.api;

import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.eclipse.jetty.http.pathmap.MatchedResource;
import org.eclipse.jetty.http.pathmap.PathMappings;
import org.eclipse.jetty.http.pathmap.UriTemplatePathSpec;

/**
 * The API's routes: exact paths and templates such as {@code /api/v1/connectors/{name}}, matched by Jetty's path
 * mappings (exact paths first), each with an endpoint per method that returns a JSON-serializable value.
 */
public final class RouteTable {

    /** Produces the response body from the request. */
    @FunctionalInterface
    public interface Endpoint {
        Object handle(Call call) throws IOException;
    }

    /** A matched route's endpoints by method, with the parameters its template bound from one request's path. */
    record Match(Map<String, Endpoint> methods, Map<String, String> parameters) {}

    private final Map<String, Map<String, Endpoint>> routes = new LinkedHashMap<>();
    private final PathMappings<Map<String, Endpoint>> mappings = new PathMappings<>();
    private final SlowWork checks;
    private final SlowWork scales;

    RouteTable(SlowWork checks, SlowWork scales) {
        this.checks = checks;
        this.scales = scales;
    }

    /**
     * {@code endpoint} for a check, which waits seconds on Kafka for its key sample: it holds one of the checks'
     * few permits while it runs, and answers 503 with Retry-After when none is free.
     */
    public Endpoint check(Endpoint endpoint) {
        return checks.limit(endpoint);
    }

    /** {@code endpoint} for a scale, limited as {@link #check} is but with permits of its own that no check takes. */
    public Endpoint scale(Endpoint endpoint) {
        return scales.limit(endpoint);
    }

    public void get(String path, Endpoint endpoint) {
        add("GET", path, endpoint);
    }

    public void post(String path, Endpoint endpoint) {
        add("POST", path, endpoint);
    }

    public void put(String path, Endpoint endpoint) {
        add("PUT", path, endpoint);
    }

    public void delete(String path, Endpoint endpoint) {
        add("DELETE", path, endpoint);
    }

    private void add(String method, String path, Endpoint endpoint) {
        Map<String, Endpoint> methods = routes.computeIfAbsent(path, template -> {
            Map<String, Endpoint> byMethod = new TreeMap<>();
            mappings.put(new UriTemplatePathSpec(template), byMethod);
            return byMethod;
        });
        if (methods.putIfAbsent(method, endpoint) != null) {
            throw new IllegalStateException(method + " " + path + " is registered twice");
        }
    }

    /** Every registered path with its methods, e.g. to check them against the OpenAPI document. */
    Map<String, Set<String>> paths() {
        Map<String, Set<String>> copy = new LinkedHashMap<>();
        routes.forEach((path, methods) -> copy.put(path, Set.copyOf(methods.keySet())));
        return copy;
    }

    /**
     * The route {@code rawPath} matches. Each raw segment is decoded once and matched with only {@code %} and
     * {@code /} escaped again: an encoded {@code /} stays inside its segment, never reaching another route, and
     * a parameter is its segment decoded once.
     *
     * @throws ApiError 400 for a malformed percent escape
     */
    Optional<Match> match(String rawPath) {
        String path = Arrays.stream(rawPath.split("/", -1))
                .map(PathSegment::decode)
                .map(segment -> segment.replace("%", "%25").replace("/", "%2F"))
                .collect(Collectors.joining("/"));
        MatchedResource<Map<String, Endpoint>> matched = mappings.getMatched(path);
        if (matched == null) {
            return Optional.empty();
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        ((UriTemplatePathSpec) matched.getPathSpec())
                .getPathParams(path)
                .forEach((name, value) -> parameters.put(name, PathSegment.decode(value)));
        return Optional.of(new Match(matched.getResource(), parameters));
    }
}
