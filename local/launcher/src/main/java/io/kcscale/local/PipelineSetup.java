package io.kcscale.local;

import io.kcscale.scaler.connect.Backoff;
import io.kcscale.scaler.connect.ConnectRestClient;
import io.kcscale.scaler.elasticsearch.ElasticsearchConnection;
import io.kcscale.scaler.kafka.KafkaReadingsClient;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.elasticsearch.client.Request;

/**
 * The pipeline on a started stack: topic {@code stocks}, index {@code stocks} and both connectors.
 * A topic or index kept from an earlier run is reused only if it has the partitions and shards
 * asked for; otherwise the start fails rather than measure a pipeline other than the one requested.
 */
public final class PipelineSetup {

    /** Connect's own bound on a request it forwards to the group's leader is 90 s; a creation waits at most 60. */
    private static final Duration CREATE_TIMEOUT = Duration.ofSeconds(60);

    private final StackOptions options;
    private final PipelineTemplates templates;
    private final StackEndpoints endpoints;
    private final Consumer<String> progress;

    PipelineSetup(
            StackOptions options, PipelineTemplates templates, StackEndpoints endpoints, Consumer<String> progress) {
        this.options = options;
        this.templates = templates;
        this.endpoints = endpoints;
        this.progress = progress;
    }

    void createTopic() {
        try (KafkaReadingsClient kafka =
                new KafkaReadingsClient(endpoints.kafkaBootstrap(), Map.of(), Duration.ofSeconds(30))) {
            try {
                kafka.admin()
                        .createTopics(List.of(new NewTopic(StackOptions.TOPIC, options.partitions(), (short) 1)))
                        .all()
                        .get();
                progress.accept(
                        "created topic " + StackOptions.TOPIC + " with " + options.partitions() + " partitions");
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw new StackStartException(
                            "cannot create topic " + StackOptions.TOPIC + ": "
                                    + e.getCause().getMessage(),
                            e);
                }
                int existing = kafka.partitionCount(StackOptions.TOPIC);
                if (existing != options.partitions()) {
                    throw new StackStartException(
                            "topic " + StackOptions.TOPIC + " already has " + existing
                                    + " partitions in " + endpoints.dataDir() + ", not the " + options.partitions()
                                    + " asked for: add --fresh to start over",
                            null);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StackStartException("interrupted creating topic", e);
            }
        }
    }

    public void createIndex() {
        String body = templates.indexDefinition(options.shards());
        try (ElasticsearchConnection es = new ElasticsearchConnection(endpoints.elasticsearchUrl(), 30_000)) {
            if (es.client().indices().exists(e -> e.index(StackOptions.INDEX)).value()) {
                String shards = es.client()
                        .indices()
                        .getSettings(g -> g.index(StackOptions.INDEX))
                        .get(StackOptions.INDEX)
                        .settings()
                        .index()
                        .numberOfShards();
                if (!String.valueOf(options.shards()).equals(shards)) {
                    throw new StackStartException(
                            "index " + StackOptions.INDEX + " already has " + shards
                                    + " primary shards in " + endpoints.dataDir() + ", not the " + options.shards()
                                    + " asked for: add --fresh to start over",
                            null);
                }
                return;
            }
            es.client().indices().create(c -> c.index(StackOptions.INDEX).withJson(new StringReader(body)));
            progress.accept("created index " + StackOptions.INDEX + " with " + options.shards()
                    + " primary shard(s), 0 replicas");
        } catch (IOException e) {
            throw new StackStartException("cannot create index " + StackOptions.INDEX + ": " + e.getMessage(), e);
        }
    }

    void createConnectors() {
        // workers that have just started may still be forming their group: Connect holds a config write until the
        // group settles, which on two busy cores took 11 s (a write that then landed); 10 s, the client's default, is
        // too short
        ConnectRestClient connect = new ConnectRestClient(endpoints.connectUrl(), CREATE_TIMEOUT, Backoff.DEFAULT);
        connect.putConnectorConfig(
                StackOptions.SOURCE_CONNECTOR,
                templates.connectorConfig(
                        "stocks-datagen.json",
                        Map.of(
                                "TOPIC",
                                StackOptions.TOPIC,
                                "KEY_FIELD",
                                options.keyField(),
                                "RATE_PER_TASK",
                                String.valueOf(options.ratePerSecond()),
                                "ITERATIONS",
                                String.valueOf(options.iterations()))));
        connect.putConnectorConfig(
                StackOptions.SINK_CONNECTOR,
                templates.connectorConfig(
                        options.sinkMode().template(),
                        Map.of(
                                "TOPIC",
                                StackOptions.TOPIC,
                                "INDEX",
                                StackOptions.INDEX,
                                "SINK_TASKS",
                                String.valueOf(options.sinkTasks()),
                                "ES_HOST_PORT",
                                endpoints.sinkElasticsearchHostPort())));
        progress.accept("created connectors " + StackOptions.SOURCE_CONNECTOR + " and " + StackOptions.SINK_CONNECTOR);
    }

    /** Creates index {@code name} from {@code definition}: benchmarks and experiments give each run an index of its own. */
    public static void createIndex(ElasticsearchConnection elasticsearch, String name, String definition) {
        Request request = new Request("PUT", "/" + name);
        request.setJsonEntity(definition);
        try {
            elasticsearch.restClient().performRequest(request);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create index " + name, e);
        }
    }
}
