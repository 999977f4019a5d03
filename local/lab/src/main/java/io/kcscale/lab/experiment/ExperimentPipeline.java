package io.kcscale.lab.experiment;

import io.kcscale.local.LocalStack;
import io.kcscale.local.Offsets;
import io.kcscale.local.SinkMode;
import io.kcscale.local.StackEndpoints;
import io.kcscale.local.StackOptions;
import io.kcscale.scaler.connect.Backoff;
import io.kcscale.scaler.connect.ConnectRestClient;
import io.kcscale.scaler.connect.ConnectorChange;
import io.kcscale.scaler.elasticsearch.ElasticsearchConnection;
import io.kcscale.scaler.kafka.KafkaReadingsClient;
import io.kcscale.scaler.model.PipelineSnapshot;
import io.kcscale.scaler.model.SinkTarget;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.scaler.ports.ConnectApi;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.elasticsearch.client.RestClient;

/**
 * The pipeline an experiment drives on a stack of its own: the stack's source and sink connectors,
 * pointed at a scenario's topic and index. Changes go through Connect's REST API as whole configs;
 * every wait polls with a deadline.
 */
final class ExperimentPipeline implements AutoCloseable {

    private static final Duration CONVERGE = Duration.ofSeconds(120);
    /** A request during a rebalance is retried for about as long as the pipeline may take to converge. */
    private static final Backoff REBALANCE_BACKOFF = new Backoff(28, Duration.ofMillis(250), Duration.ofSeconds(5));

    private static final Duration POLL = Duration.ofMillis(250);
    private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(10);
    private static final String SOURCE = StackOptions.SOURCE_CONNECTOR;
    private static final String SINK = StackOptions.SINK_CONNECTOR;
    private static final String GROUP = SinkTarget.consumerGroup(SINK);
    private static final String MAX_POLL_RECORDS = "consumer.override.max.poll.records";
    /**
     * The per-record sink's poll size in experiments. A sink task commits only between batches, and a
     * batch of the default 500 records takes seconds at ~100 requests/s: committed offsets, and so lag
     * and per-task rates, would move in steps of seconds, and a task stopped mid-batch outlives its
     * 5 s graceful stop. Each record is still one request, so the sink's throughput is the same.
     */
    static final int INDEX_MODE_POLL_RECORDS = 50;

    private final LocalStack stack;
    private final ConnectApi connect;
    private final ConnectorChange change;
    private final DatagenSource source;
    private final KafkaReadingsClient kafka;
    private final ElasticsearchConnection elasticsearch;
    private PipelineLayout layout;

    ExperimentPipeline(LocalStack stack) {
        this.stack = stack;
        this.connect = new ConnectRestClient(stack.endpoints().connectUrl(), Duration.ofSeconds(10), REBALANCE_BACKOFF);
        this.change = new ConnectorChange(connect, CONVERGE);
        this.kafka = new KafkaReadingsClient(stack.endpoints().kafkaBootstrap(), Map.of(), Duration.ofSeconds(10));
        this.source = new DatagenSource(change, () -> offsets().appended());
        this.elasticsearch = new ElasticsearchConnection(stack.endpoints().elasticsearchUrl(), 30_000);
    }

    /**
     * Creates the layout's topic and index, points the source at the topic (stopped, seeded) and the
     * sink at the index with {@code tasks} tasks, and waits until they consume.
     */
    void prepare(PipelineLayout next, int tasks, long seed) {
        connect.resumeConnector(SINK);
        createTopic(next);
        stack.createIndex(elasticsearch, next.name(), next.shards());
        Map<String, String> sourceConfig = new HashMap<>(stack.connectorConfig(
                "stocks-datagen.json",
                Map.of("TOPIC", next.name(), "KEY_FIELD", next.keyField(), "RATE_PER_TASK", "1", "ITERATIONS", "1")));
        sourceConfig.put("random.seed", String.valueOf(seed));
        Map<String, String> sink = new HashMap<>(stack.connectorConfig(
                next.sinkMode().template(),
                Map.of(
                        "TOPIC",
                        next.name(),
                        "INDEX",
                        next.name(),
                        "SINK_TASKS",
                        String.valueOf(tasks),
                        "ES_HOST_PORT",
                        stack.endpoints().sinkElasticsearchHostPort())));
        if (next.sinkMode() == SinkMode.INDEX) {
            sink.put(MAX_POLL_RECORDS, String.valueOf(INDEX_MODE_POLL_RECORDS));
        }
        Set<String> before = members();
        change.put(SOURCE, sourceConfig, ConnectorChange.tasksMax(sourceConfig));
        layout = next;
        change.put(SINK, sink, tasks);
        awaitSinkConsuming(tasks, before);
    }

    /** The source's and the sink's configs as Connect holds them now, by connector name: for the run's record. */
    Map<String, Map<String, String>> connectorConfigs() {
        return Map.of(SOURCE, connect.connectorConfig(SOURCE), SINK, connect.connectorConfig(SINK));
    }

    PipelineLayout layout() {
        return layout;
    }

    /** The source, pointed at the layout's topic by {@link #prepare}. */
    DatagenSource source() {
        return source;
    }

    /**
     * Runs the sink with {@code tasks} tasks and waits until they consume: resumed first (a change
     * made while paused can restart tasks paused), then tasks.max set if it differs, which restarts
     * every task, so the group must show none of its members from before.
     */
    void sinkTasks(int tasks) {
        connect.resumeConnector(SINK);
        Map<String, String> config = new HashMap<>(connect.connectorConfig(SINK));
        Set<String> before = Set.of();
        if (!String.valueOf(tasks).equals(config.get("tasks.max"))) {
            before = members();
            config.put("tasks.max", String.valueOf(tasks));
            change.put(SINK, config, tasks);
        } else {
            change.awaitRunning(SINK, tasks);
        }
        awaitSinkConsuming(tasks, before);
    }

    /** Stops the sink consuming; its tasks keep their partitions and the group its offsets. */
    void pauseSink() {
        connect.pauseConnector(SINK);
        Poll.untilTrue(
                "the sink to pause",
                CONVERGE,
                POLL,
                () -> connect.connectorStatus(SINK).tasks().stream().allMatch(t -> "PAUSED".equals(t.state())),
                () -> "tasks " + connect.connectorStatus(SINK).tasks());
    }

    /**
     * Once the {@code tasks} sink tasks run, waits until their consumers are new (none of {@code before}),
     * share every partition, and, when there is lag, have committed progress.
     */
    private void awaitSinkConsuming(int tasks, Set<String> before) {
        int owners = Math.min(tasks, layout.partitions());
        Poll.untilTrue(
                "the " + tasks + " sink tasks to own all partitions",
                CONVERGE,
                POLL,
                () -> {
                    if (members().stream().anyMatch(before::contains)) {
                        return false;
                    }
                    Map<Integer, Integer> assignment = assignment();
                    return assignment.size() == layout.partitions()
                            && new HashSet<>(assignment.values()).size() == owners;
                },
                () -> "sink tasks " + connect.connectorStatus(SINK).tasks() + ", group members "
                        + members().size());
        Offsets from = offsets();
        if (from.lag() > 0) {
            Poll.untilTrue(
                    "the sink tasks to commit progress",
                    CONVERGE,
                    POLL,
                    () -> offsets().consumed() > from.consumed(),
                    () -> "committed " + from.consumed() + " still");
        }
    }

    /**
     * The sink group's member ids: a restarted task joins under a new one. None while the group does not exist yet:
     * on a fresh stack the sink's first tasks may not have joined when the experiment starts.
     */
    private Set<String> members() {
        try {
            return await(
                            "describe group " + GROUP,
                            kafka.admin()
                                    .describeConsumerGroups(List.of(GROUP))
                                    .describedGroups()
                                    .get(GROUP))
                    .members()
                    .stream()
                    .map(MemberDescription::consumerId)
                    .collect(Collectors.toSet());
        } catch (IllegalStateException e) {
            if (e.getCause() instanceof ExecutionException x && x.getCause() instanceof GroupIdNotFoundException) {
                return Set.of();
            }
            throw e;
        }
    }

    /** Which sink task consumes each partition, from the group's members. */
    Map<Integer, Integer> assignment() {
        Map<Integer, Integer> tasks = new HashMap<>();
        kafka.describeGroup(GROUP, layout.name())
                .clientIdByPartition()
                .forEach((partition, clientId) ->
                        SinkTarget.taskOfClientId(clientId).ifPresent(t -> tasks.put(partition, t)));
        return tasks;
    }

    Offsets offsets() {
        return Offsets.read(kafka, GROUP, layout.name());
    }

    /** The sink's tasks with the workers Connect runs them on (partitions and rates left out). */
    List<PipelineSnapshot.Task> taskPlacement() {
        return connect.connectorStatus(SINK).tasks().stream()
                .map(t -> new PipelineSnapshot.Task(
                        t.id(), t.state(), t.workerId(), List.of(), Map.of(), null, null, null))
                .toList();
    }

    /**
     * Moves the sink group past everything in the topic without consuming it: removes the sink (the
     * group keeps its offsets and loses its members), commits the log-end offsets for the group, and
     * creates the sink again as it was.
     */
    void skipBacklog() {
        Map<String, String> config = connect.connectorConfig(SINK);
        connect.deleteConnector(SINK);
        Poll.untilTrue(
                "the sink group to have no members",
                CONVERGE,
                POLL,
                () -> members().isEmpty(),
                () -> members().size() + " members");
        Map<TopicPartition, OffsetAndMetadata> ends = new HashMap<>();
        offsets().end().forEach((p, end) -> ends.put(new TopicPartition(layout.name(), p), new OffsetAndMetadata(end)));
        await(
                "move group " + GROUP + " to the end of " + layout.name(),
                kafka.admin().alterConsumerGroupOffsets(GROUP, ends).all());
        int tasks = ConnectorChange.tasksMax(config);
        change.put(SINK, config, tasks);
        awaitSinkConsuming(tasks, Set.of());
    }

    /** Waits, with the source stopped, until the sink has consumed all but {@code records}. */
    void awaitLagAtMost(long records, Duration timeout) {
        Poll.untilTrue(
                "the sink group's lag to fall to " + records,
                timeout,
                Duration.ofMillis(500),
                () -> offsets().lag() <= records,
                () -> "lag " + offsets().lag());
    }

    RestClient elasticsearch() {
        return elasticsearch.restClient();
    }

    StackEndpoints endpoints() {
        return stack.endpoints();
    }

    private void createTopic(PipelineLayout next) {
        await(
                "create topic " + next.name(),
                kafka.admin()
                        .createTopics(List.of(new NewTopic(next.name(), next.partitions(), (short) 1)))
                        .all());
    }

    private static <T> T await(String what, KafkaFuture<T> future) {
        try {
            return future.get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: " + what, e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(
                    "cannot " + what + ": " + e.getCause().getMessage(), e);
        } catch (TimeoutException e) {
            throw new IllegalStateException(
                    "cannot " + what + ": no answer within " + ADMIN_TIMEOUT.toSeconds() + " s", e);
        }
    }

    @Override
    public void close() throws IOException {
        kafka.close();
        elasticsearch.close();
    }
}
