package io.kcscale.local;

import io.kcscale.scaler.connect.ConnectRestClient;
import io.kcscale.scaler.elasticsearch.ElasticsearchConnection;
import io.kcscale.scaler.kafka.KafkaReadingsClient;
import io.kcscale.scaler.poll.Poll;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Waits until a started component serves what the next step needs, polling with a deadline while
 * it lives: its death or the deadline fails the start with the component's last log lines.
 */
public final class Readiness {

    /**
     * Our Camel-based sink, one of the connectors the Camel plugin directory's manifests declare: the workers load
     * plugins from manifests only ({@code plugin.discovery=service_load}), so Camel's own connector is not listed.
     */
    public static final String SINK_CONNECTOR_CLASS = "io.kcscale.connectors.camel.PerRecordSinkConnector";

    private static final String SOURCE_CONNECTOR_CLASS = "io.kcscale.connectors.datagen.DatagenConnector";

    private final StackEndpoints endpoints;
    private final Consumer<String> progress;

    public Readiness(StackEndpoints endpoints, Consumer<String> progress) {
        this.endpoints = endpoints;
        this.progress = progress;
    }

    void kafka(ChildJvm kafka) {
        try (KafkaReadingsClient admin =
                new KafkaReadingsClient(endpoints.kafkaBootstrap(), Map.of(), Duration.ofSeconds(5))) {
            await(kafka, "Kafka to accept clients", Duration.ofSeconds(90), () -> {
                try {
                    return Optional.of(
                            admin.admin().describeCluster().nodes().get().size());
                } catch (InterruptedException | ExecutionException e) {
                    throw new IllegalStateException(e.getMessage());
                }
            });
        }
    }

    public void elasticsearch(ChildJvm elasticsearch) {
        try (ElasticsearchConnection es = new ElasticsearchConnection(endpoints.elasticsearchUrl(), 5000)) {
            await(elasticsearch, "Elasticsearch to answer", Duration.ofSeconds(120), () -> {
                try {
                    return es.client().ping().value() ? Optional.of(true) : Optional.empty();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Until the worker at {@code url} offers both connector plugins the pipeline uses. */
    void worker(ChildJvm worker, URI url) {
        ConnectRestClient connect = new ConnectRestClient(url);
        await(worker, worker.name() + " to offer the datagen and Camel plugins", Duration.ofSeconds(180), () -> {
            List<String> plugins = connect.connectorPlugins();
            return plugins.contains(SINK_CONNECTOR_CLASS) && plugins.contains(SOURCE_CONNECTOR_CLASS)
                    ? Optional.of(plugins)
                    : Optional.empty();
        });
    }

    /** Until the scaler has observed the sink connector, so its API answers about the pipeline at once. */
    void scaler(ChildJvm scaler) {
        awaitOk(
                scaler,
                "the scaler to observe " + StackOptions.SINK_CONNECTOR,
                endpoints.scalerUrl().resolve("/api/v1/connectors/" + StackOptions.SINK_CONNECTOR),
                Duration.ofSeconds(60));
    }

    /** Until a request through the proxy reaches Elasticsearch. */
    void sinkProxy(ChildJvm proxy) {
        awaitOk(
                proxy,
                "the sink latency proxy to forward to Elasticsearch",
                endpoints.sinkElasticsearchUrl().resolve("/"),
                Duration.ofSeconds(30));
    }

    void prometheus(ChildJvm prometheus) {
        awaitOk(
                prometheus,
                "Prometheus to be ready",
                endpoints.prometheusUrl().resolve("/-/ready"),
                Duration.ofSeconds(60));
    }

    /** Polls {@code url} until it answers 200, while {@code component} lives. */
    private void awaitOk(ChildJvm component, String what, URI url, Duration timeout) {
        HttpClient http = HttpClient.newHttpClient();
        await(component, what, timeout, () -> {
            try {
                int status = http.send(
                                HttpRequest.newBuilder(url)
                                        .timeout(Duration.ofSeconds(5))
                                        .build(),
                                HttpResponse.BodyHandlers.discarding())
                        .statusCode();
                if (status != 200) {
                    throw new IllegalStateException("GET " + url + " -> " + status);
                }
                return Optional.of(status);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new Poll.Abort("interrupted");
            }
        });
    }

    /** Polls {@code probe} while {@code component} lives; its death or the deadline fails the start. */
    public <T> T await(ChildJvm component, String what, Duration timeout, Supplier<Optional<T>> probe) {
        progress.accept("waiting for " + what);
        try {
            return Poll.until(what, timeout, Duration.ofMillis(250), () -> {
                if (!component.isAlive()) {
                    throw new Poll.Abort(component.name() + " exited");
                }
                return probe.get();
            });
        } catch (RuntimeException e) {
            throw new StackStartException(
                    component.name() + " did not start: " + e.getMessage() + "\n--- last lines of "
                            + component.logFile() + " ---\n" + component.logTail(30),
                    e);
        }
    }
}
