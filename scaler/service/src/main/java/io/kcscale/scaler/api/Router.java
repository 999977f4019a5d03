package io.kcscale.scaler.api;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.kcscale.scaler.input.InvalidInputException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Dispatches requests by path (exact, or a template such as {@code /api/v1/connectors/{name}}) and method to endpoints that return a JSON-serializable value.
 * Every answer is JSON, errors included: 400 names the bad field, 404 and 405 say what exists, and
 * only a bug gives a 500. Before any route, a request the {@link RequestThreads} shed gets 503, and the
 * {@link RequestGuard} refuses what another site's page could send (421, 403, 415).
 */
public final class Router implements HttpHandler {

    private static final Logger LOG = LoggerFactory.getLogger(Router.class);

    /** Produces the response body from the request. */
    @FunctionalInterface
    public interface Endpoint {
        Object handle(HttpExchange exchange) throws IOException;
    }

    private static final String BUSY_RETRY_SECONDS = "1";

    private final Map<String, Map<String, Endpoint>> routes = new LinkedHashMap<>();
    /**
     * The path parameters of each exchange being answered. Not the exchange's attributes: the JDK server keeps those
     * in its context, shared by every exchange, so two requests at once would read each other's parameters.
     */
    private final Map<HttpExchange, Map<String, String>> pathParameters = new ConcurrentHashMap<>();
    private final RequestGuard guard;
    private final SlowWork slowWork;

    Router(RequestGuard guard, SlowWork slowWork) {
        this.guard = guard;
        this.slowWork = slowWork;
    }

    /**
     * {@code endpoint} for a route that waits seconds on other systems (a key sample, a scale): it
     * holds one of a few permits while it runs, and answers 503 with Retry-After when none is free.
     */
    public Endpoint slow(Endpoint endpoint) {
        return slowWork.limit(endpoint);
    }

    public void get(String path, Endpoint endpoint) {
        add("GET", path, endpoint);
    }

    /** A POST endpoint that reads its own request (for path parameters, or a body it validates itself). */
    public void post(String path, Endpoint endpoint) {
        add("POST", path, endpoint);
    }

    public void put(String path, Endpoint endpoint) {
        add("PUT", path, endpoint);
    }

    public void delete(String path, Endpoint endpoint) {
        add("DELETE", path, endpoint);
    }

    /** The value of {@code {name}} in the path template the request matched. */
    public String pathParameter(HttpExchange exchange, String name) {
        String value = pathParameters.getOrDefault(exchange, Map.of()).get(name);
        if (value == null) {
            throw new IllegalStateException("the route has no path parameter {" + name + "}");
        }
        return value;
    }

    /** A POST endpoint taking a JSON body of type {@code request}. */
    public <T> void post(String path, Class<T> request, Function<T, ?> handler) {
        add("POST", path, exchange -> handler.apply(JsonBody.read(exchange.getRequestBody(), request)));
    }

    private void add(String method, String path, Endpoint endpoint) {
        if (routes.computeIfAbsent(path, p -> new TreeMap<>()).putIfAbsent(method, endpoint) != null) {
            throw new IllegalStateException(method + " " + path + " is registered twice");
        }
    }

    /** Every registered path with its methods, e.g. to check them against the OpenAPI document. */
    public Map<String, Set<String>> routes() {
        Map<String, Set<String>> copy = new LinkedHashMap<>();
        routes.forEach((path, methods) -> copy.put(path, Set.copyOf(methods.keySet())));
        return copy;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod();
            String path = exchange.getRequestURI().getRawPath();
            try {
                if (RequestThreads.shedding()) {
                    throw new ApiError(503, "the scaler is answering as many requests as it can; retry in "
                            + BUSY_RETRY_SECONDS + " second", null, Map.of("Retry-After", BUSY_RETRY_SECONDS));
                }
                Optional<String> crossOrigin = guard.admit(exchange);
                crossOrigin.ifPresent(origin -> {
                    exchange.getResponseHeaders().set("Access-Control-Allow-Origin", origin);
                    exchange.getResponseHeaders().set("Vary", "Origin");
                });
                Optional<Route> route = match(path);
                Map<String, Endpoint> methods = route.map(Route::methods).orElse(null);
                route.ifPresent(r -> pathParameters.put(exchange, r.parameters()));
                if (methods == null) {
                    respond(exchange, 404, error("no route " + path, null));
                } else if (method.equals("OPTIONS") && crossOrigin.isPresent()) {
                    preflight(exchange, methods.keySet());
                } else if (!methods.containsKey(method)) {
                    exchange.getResponseHeaders().set("Allow", String.join(", ", methods.keySet()));
                    respond(exchange, 405, error(method + " is not allowed on " + path + "; allowed: "
                            + String.join(", ", methods.keySet()), null));
                } else {
                    RequestGuard.requireJson(exchange);
                    answer(exchange, methods.get(method), method + " " + path);
                }
            } catch (ApiError e) {
                e.headers().forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
                respond(exchange, e.status(), error(e.getMessage(), e.field()));
            } finally {
                pathParameters.remove(exchange);
            }
        }
    }

    /** A registered route's methods, with the parameters its template bound from one request's path. */
    private record Route(Map<String, Endpoint> methods, Map<String, String> parameters) {
    }

    /** What an allowed other origin's page may send: the route's methods, with a token and a JSON body. */
    private static void preflight(HttpExchange exchange, Set<String> methods) throws IOException {
        exchange.getResponseHeaders().set("Access-Control-Allow-Methods", String.join(", ", methods));
        exchange.getResponseHeaders().set("Access-Control-Allow-Headers", "Authorization, Content-Type");
        exchange.getResponseHeaders().set("Access-Control-Max-Age", "600");
        exchange.sendResponseHeaders(204, -1);
    }

    /**
     * The route {@code rawPath} matches, exact paths first, with the template's parameters bound.
     * Each segment of the raw path is decoded once, so an encoded {@code /} stays inside its segment.
     *
     * @throws ApiError 400 for a malformed percent escape
     */
    private Optional<Route> match(String rawPath) {
        String[] raw = rawPath.split("/", -1);
        String[] segments = new String[raw.length];
        for (int i = 0; i < raw.length; i++) {
            segments[i] = PathSegment.decode(raw[i]);
        }
        for (boolean exact : new boolean[] {true, false}) {
            for (Map.Entry<String, Map<String, Endpoint>> route : routes.entrySet()) {
                if (route.getKey().contains("{") != exact) {
                    Map<String, String> parameters = bind(route.getKey().split("/", -1), segments);
                    if (parameters != null) {
                        return Optional.of(new Route(route.getValue(), parameters));
                    }
                }
            }
        }
        return Optional.empty();
    }

    /** The template's parameters bound to the path's segments, or null when the path does not fit the template. */
    private static Map<String, String> bind(String[] template, String[] segments) {
        if (template.length != segments.length) {
            return null;
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        for (int i = 0; i < template.length; i++) {
            if (template[i].startsWith("{") && template[i].endsWith("}")) {
                if (segments[i].isEmpty()) {
                    return null;
                }
                parameters.put(template[i].substring(1, template[i].length() - 1), segments[i]);
            } else if (!template[i].equals(segments[i])) {
                return null;
            }
        }
        return parameters;
    }

    private static void answer(HttpExchange exchange, Endpoint endpoint, String route) throws IOException {
        Object body;
        int status = 200;
        try {
            body = endpoint.handle(exchange);
        } catch (ApiError e) {
            status = e.status();
            body = error(e.getMessage(), e.field());
            e.headers().forEach((name, value) -> exchange.getResponseHeaders().set(name, value));
        } catch (InvalidInputException e) {
            status = 400;
            body = error(e.describe(UnaryOperator.identity()), e.field());
        } catch (RuntimeException e) {
            LOG.warn("{} failed", route, e);
            status = 500;
            body = error("internal error: " + e, null);
        }
        respond(exchange, status, body);
    }

    private static Map<String, String> error(String message, String field) {
        Map<String, String> error = new LinkedHashMap<>();
        error.put("error", message);
        if (field != null) {
            error.put("field", field);
        }
        return error;
    }

    /** A response body sent as it is, for the few answers that are not JSON (Prometheus text, the web page). */
    public record RawBody(String contentType, byte[] bytes) {
    }

    private static void respond(HttpExchange exchange, int status, Object body) throws IOException {
        byte[] bytes;
        if (body instanceof RawBody raw) {
            bytes = raw.bytes();
            exchange.getResponseHeaders().set("Content-Type", raw.contentType());
        } else {
            bytes = Json.write(body).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
        }
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
