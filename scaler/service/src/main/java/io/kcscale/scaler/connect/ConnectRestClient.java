package io.kcscale.scaler.connect;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kcscale.scaler.access.AccessProblem;
import io.kcscale.scaler.act.WriteFence;
import io.kcscale.scaler.common.ConnectorPath;
import io.kcscale.scaler.ports.ConnectApi;
import io.kcscale.scaler.ports.ConnectorStatus;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;

/**
 * A typed client of the Kafka Connect REST API. HTTP errors become typed exceptions
 * ({@link ConnectRestException} and its cases); a 409, which Connect answers while its worker group
 * rebalances (or a 500 saying a rebalance is expected), is retried with a bounded {@link Backoff} before it
 * is reported.
 */
public final class ConnectRestClient implements ConnectApi {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern HTML_TITLE = Pattern.compile("<title>([^<]*)</title>", Pattern.CASE_INSENSITIVE);

    private final URI baseUri;
    private final HttpClient http;
    private final Duration requestTimeout;
    private final Backoff backoff;
    private final Optional<String> authorization;
    private final WriteFence fence;

    public ConnectRestClient(URI baseUri) {
        this(baseUri, Duration.ofSeconds(10), Backoff.DEFAULT);
    }

    public ConnectRestClient(URI baseUri, Duration requestTimeout, Backoff backoff) {
        this(baseUri, requestTimeout, backoff, Optional.empty(), null);
    }

    /**
     * @param authorization an {@code Authorization} header value for every request (basic auth), if any
     * @param tls           the TLS context for an https URL, or null for the JVM's default
     */
    public ConnectRestClient(
            URI baseUri, Duration requestTimeout, Backoff backoff, Optional<String> authorization, SSLContext tls) {
        this.baseUri = URI.create(baseUri.toString().replaceAll("/+$", "") + "/");
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(requestTimeout);
        if (tls != null) {
            builder.sslContext(tls);
        }
        this.http = builder.build();
        this.requestTimeout = requestTimeout;
        this.backoff = backoff;
        this.authorization = authorization;
        this.fence = WriteFence.NONE;
    }

    private ConnectRestClient(ConnectRestClient client, WriteFence fence) {
        this.baseUri = client.baseUri;
        this.http = client.http;
        this.requestTimeout = client.requestTimeout;
        this.backoff = client.backoff;
        this.authorization = client.authorization;
        this.fence = fence;
    }

    /** This client, sharing its connections, with {@code fence} asked before each attempt of a write. */
    @Override
    public ConnectRestClient fenced(WriteFence fence) {
        return new ConnectRestClient(this, fence);
    }

    public URI baseUri() {
        return baseUri;
    }

    /** The worker's version, from {@code GET /}; answers once the worker's REST server is up. */
    public String workerVersion() {
        return send("GET", "", null).path("version").asText();
    }

    /** Class names of the installed connector plugins. */
    public List<String> connectorPlugins() {
        List<String> classes = new ArrayList<>();
        send("GET", "connector-plugins", null)
                .forEach(p -> classes.add(p.path("class").asText()));
        return classes;
    }

    @Override
    public List<String> connectors() {
        return JSON.convertValue(send("GET", "connectors", null), new TypeReference<List<String>>() {});
    }

    @Override
    public Map<String, String> connectorConfig(String name) {
        return JSON.convertValue(
                send("GET", "connectors/" + ConnectorPath.segment(name) + "/config", null),
                new TypeReference<Map<String, String>>() {});
    }

    @Override
    public void putConnectorConfig(String name, Map<String, String> config) {
        send("PUT", "connectors/" + ConnectorPath.segment(name) + "/config", config);
    }

    @Override
    public void patchConnectorConfig(String name, Map<String, String> changes) {
        send("PATCH", "connectors/" + ConnectorPath.segment(name) + "/config", changes);
    }

    @Override
    public ConnectorStatus connectorStatus(String name) {
        return status(send("GET", "connectors/" + ConnectorPath.segment(name) + "/status", null));
    }

    @Override
    public Map<String, ConnectorView> connectorsExpanded() {
        Map<String, ConnectorView> views = new java.util.TreeMap<>();
        send("GET", "connectors?expand=info&expand=status", null).fields().forEachRemaining(e -> {
            Map<String, String> config = JSON.convertValue(
                    e.getValue().path("info").path("config"), new TypeReference<Map<String, String>>() {});
            views.put(
                    e.getKey(),
                    new ConnectorView(e.getKey(), config, status(e.getValue().path("status"))));
        });
        return views;
    }

    private static ConnectorStatus status(JsonNode status) {
        List<ConnectorStatus.TaskStatus> tasks = new ArrayList<>();
        status.path("tasks")
                .forEach(t -> tasks.add(new ConnectorStatus.TaskStatus(
                        t.path("id").asInt(),
                        t.path("state").asText(),
                        t.path("worker_id").asText(),
                        t.hasNonNull("trace") ? t.get("trace").asText() : null)));
        JsonNode connector = status.path("connector");
        return new ConnectorStatus(
                status.path("name").asText(),
                status.path("type").asText(),
                connector.path("state").asText(),
                connector.path("worker_id").asText(),
                tasks);
    }

    @Override
    public void restartConnector(String name, boolean includeTasks, boolean onlyFailed) {
        send(
                "POST",
                "connectors/" + ConnectorPath.segment(name) + "/restart?includeTasks=" + includeTasks + "&onlyFailed="
                        + onlyFailed,
                null);
    }

    @Override
    public void deleteConnector(String name) {
        send("DELETE", "connectors/" + ConnectorPath.segment(name), null);
    }

    @Override
    public void pauseConnector(String name) {
        send("PUT", "connectors/" + ConnectorPath.segment(name) + "/pause", null);
    }

    @Override
    public void resumeConnector(String name) {
        send("PUT", "connectors/" + ConnectorPath.segment(name) + "/resume", null);
    }

    private JsonNode send(String method, String path, Object body) {
        HttpRequest request = request(method, path, body);
        for (int attempt = 1; ; attempt++) {
            if (!method.equals("GET")) {
                // the connect timeout and the request's own: the most one attempt may take
                fence.beforeWrite(method + " " + request.uri().getPath(), requestTimeout.multipliedBy(2));
            }
            try {
                return answer(request);
            } catch (ConnectRestException.RebalanceInProgress e) {
                if (attempt >= backoff.maxAttempts()) {
                    throw e;
                }
                pause(backoff.delayAfter(attempt));
            }
        }
    }

    private HttpRequest request(String method, String path, Object body) {
        HttpRequest.BodyPublisher publisher;
        try {
            publisher = body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write request body as JSON", e);
        }
        HttpRequest.Builder builder = HttpRequest.newBuilder(baseUri.resolve(path))
                .timeout(requestTimeout)
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .method(method, publisher);
        authorization.ifPresent(a -> builder.header("Authorization", a));
        return builder.build();
    }

    private JsonNode answer(HttpRequest request) {
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            Optional<String> access = AccessProblem.connect(baseUri, -1, e);
            if (access.isPresent()) {
                throw new ConnectRestException.Unreachable(access.get(), e);
            }
            throw new ConnectRestException.Unreachable(
                    "Kafka Connect at " + baseUri + " is unreachable: "
                            + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : " " + e.getMessage()),
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectRestException.Unreachable("interrupted calling Kafka Connect at " + baseUri, e);
        }
        int status = response.statusCode();
        if (status >= 200 && status < 300) {
            return parse(response.body());
        }
        String message = AccessProblem.connect(baseUri, status, null)
                .orElse(request.method() + " " + request.uri().getPath() + " -> " + status + ": "
                        + errorMessage(response.body()));
        // a request that arrives just as the worker group must rebalance gets a 500 saying so, not a 409
        if (status == 500 && message.contains("rebalance is expected")) {
            throw new ConnectRestException.RebalanceInProgress(message);
        }
        if (status == 400 && !isJson(response.body())) {
            throw new ConnectRestException.PathRejected(message);
        }
        switch (status) {
            case 404:
                throw new ConnectRestException.ConnectorNotFound(message);
            case 409:
                throw new ConnectRestException.RebalanceInProgress(message);
            case 400:
                throw new ConnectRestException.ConfigRejected(status, message);
            default:
                throw new ConnectRestException(status, message);
        }
    }

    private static JsonNode parse(String body) {
        if (body == null || body.isBlank()) {
            return JSON.nullNode();
        }
        try {
            return JSON.readTree(body);
        } catch (JsonProcessingException e) {
            throw new ConnectRestException(200, "Kafka Connect answered with a body that is not JSON: " + body);
        }
    }

    private static String errorMessage(String body) {
        try {
            JsonNode node = JSON.readTree(body);
            return node.hasNonNull("message") ? node.get("message").asText() : body;
        } catch (JsonProcessingException e) {
            // the web server's own error page: its title says it all ("Error 400 Ambiguous URI path separator")
            Matcher title = HTML_TITLE.matcher(body);
            return title.find() ? title.group(1).strip() : body;
        }
    }

    private static boolean isJson(String body) {
        try {
            return body != null && JSON.readTree(body).isObject();
        } catch (JsonProcessingException e) {
            return false;
        }
    }

    private static void pause(Duration delay) {
        try {
            Thread.sleep(delay.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectRestException.Unreachable("interrupted while backing off", e);
        }
    }
}
