package io.kcscale.scaler.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.act.WriteFence;
import io.kcscale.scaler.autoscale.AutoscaleEvaluator;
import io.kcscale.scaler.autoscale.AutoscalePolicy;
import io.kcscale.scaler.autoscale.Lease;
import io.kcscale.scaler.checks.Checks;
import io.kcscale.scaler.checks.keys.KeyTally;
import io.kcscale.scaler.loop.AutoscaleLoop;
import io.kcscale.scaler.loop.InMemoryPolicyStore;
import io.kcscale.scaler.model.SinkIndexes;
import io.kcscale.scaler.observe.CheckObserver;
import io.kcscale.scaler.observe.KeySampling;
import io.kcscale.scaler.observe.PipelineObserver;
import io.kcscale.scaler.observe.PipelineWatcher;
import io.kcscale.scaler.observe.TaskMetricsSources;
import io.kcscale.scaler.ports.InMemoryConnectors;
import io.kcscale.scaler.ports.InMemoryKafka;
import io.kcscale.scaler.ports.InMemorySinkCluster;
import io.kcscale.scaler.ports.Leadership;
import io.kcscale.scaler.ports.ScalerException;
import io.kcscale.scaler.ports.TasksMaxWriter;
import io.kcscale.scaler.ports.WorkerCpuReadings;
import io.kcscale.scaler.prometheus.WorkerCpuSettings;
import io.kcscale.scaler.scale.ScaleAction;
import io.kcscale.scaler.scale.ScaleRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The facade's own decisions (which names it observes, a manual scale beside a policy), against in-memory ports. */
class ScalerTest {

    private static final Map<String, String> ORDERS = Map.of("topics", "orders", "tasks.max", "2");
    private static final AutoscalePolicy POLICY =
            new AutoscalePolicy(1, 6, 5.0, null, null, null, null, null, null, null);

    private final InMemoryConnectors connect = new InMemoryConnectors();
    private final InMemoryKafka kafka = new InMemoryKafka();
    private final InMemorySinkCluster cluster = new InMemorySinkCluster();
    private final InMemoryPolicyStore policies = new InMemoryPolicyStore();
    private final PipelineWatcher watcher = new PipelineWatcher(
            connect,
            new PipelineObserver(
                    kafka,
                    cluster,
                    SinkIndexes.none(),
                    topic -> Optional.empty(),
                    new TaskMetricsSources(WorkerCpuSettings.none()),
                    System::currentTimeMillis),
            ids -> Set.of(),
            Duration.ofSeconds(2),
            Duration.ofMinutes(1),
            (connectors, nanos) -> {});
    private final KeySampling keys = new KeySampling(
            (topic, budget) -> new KeyTally().sample(topic, 1, 1, 1, "end", List.of(0)), 1, 1, Duration.ofSeconds(1));
    private final ScalingChecks checks = new ScalingChecks(
            Checks.ALL,
            new CheckObserver(
                    connect,
                    kafka,
                    keys,
                    watcher,
                    ids -> new WorkerCpuReadings.Result(null, "no worker runs here"),
                    Optional.empty(),
                    SinkIndexes.none(),
                    Duration.ofMinutes(5)),
            watcher,
            System::currentTimeMillis);
    private final TasksMaxWriter refusingWriter = new TasksMaxWriter() {
        @Override
        public void write(String connector, Map<String, String> seen, int tasks, WriteFence fence) {
            throw new AssertionError("these tests write nothing");
        }

        @Override
        public String describe(String connector) {
            return "nowhere";
        }
    };
    private final ScaleAction scaleAction = new ScaleAction(
            connect,
            refusingWriter,
            kafka::partitionCount,
            cluster::indexTotal,
            SinkIndexes.none(),
            watcher::snapshot,
            checks,
            ids -> Set.of(),
            8,
            Duration.ofSeconds(5),
            System::currentTimeMillis);
    private final Leadership follower = new Leadership() {
        @Override
        public String instanceId() {
            return "scaler-a";
        }

        @Override
        public Optional<Lease> lease() {
            return Optional.empty();
        }

        @Override
        public WriteFence fence(Lease lease) {
            throw new AssertionError("a follower writes nothing");
        }
    };
    private final AutoscaleLoop autoscaler = new AutoscaleLoop(
            watcher::snapshot,
            scaleAction::scale,
            policies,
            follower,
            checks::blockingFindings,
            5_000,
            Duration.ofMinutes(5),
            System::currentTimeMillis);
    private final Scaler scaler = new Scaler(
            watcher,
            connect,
            checks,
            scaleAction,
            autoscaler,
            new AutoscaleEvaluator(Duration.ofMinutes(5)),
            new ScalerMetrics(
                    watcher,
                    autoscaler::latestRecommendedTasks,
                    autoscaler::latestRecommendedWorkers,
                    new ScalerCostMetrics()),
            "scaler-a",
            Optional::empty,
            Optional::empty,
            offsets -> java.util.Map.of(),
            Optional.empty());

    @AfterEach
    void close() {
        autoscaler.close();
        watcher.close();
        keys.close();
    }

    private void pipeline() {
        kafka.topic("orders", 100, 40)
                .group(
                        "connect-orders-sink",
                        "orders",
                        Map.of(0, 80L, 1, 40L),
                        InMemoryKafka.owners("orders-sink", 2, 2));
        connect.connector("orders-sink", "sink", ORDERS, 2, "w1:8083");
        connect.connector("datagen", "source", Map.of("kafka.topic", "orders"), 1, "w1:8083");
    }

    private ScalerException notObserved(String name) {
        return assertThrows(ScalerException.class, () -> scaler.snapshot(name));
    }

    @Test
    void aSinkCreatedSinceTheLastRoundIsSampledAtOnce() {
        pipeline();
        assertEquals(List.of(), scaler.snapshots(), "no round yet");

        assertEquals("orders-sink", scaler.snapshot("orders-sink").name());
        assertEquals(1, watcher.window("orders-sink").size());
    }

    @Test
    void aNameThatIsNoSinkConnectKnowsGetsItsReasonAndOneLine() {
        pipeline();
        watcher.sampleOnce();

        ScalerException source = notObserved("datagen");
        assertEquals(ScalerException.Problem.NOT_A_SINK, source.problem());
        assertEquals("datagen is a source connector: the scaler observes sink connectors", source.getMessage());

        ScalerException unknown = notObserved("nobody");
        assertEquals(ScalerException.Problem.UNKNOWN_CONNECTOR, unknown.problem());
        assertEquals("no connector named nobody", unknown.getMessage());

        connect.down = InMemoryConnectors.unreachable();
        ScalerException unanswered = notObserved("created-meanwhile");
        assertEquals(ScalerException.Problem.CONNECT_UNAVAILABLE, unanswered.problem());
        assertEquals(
                "created-meanwhile is unknown and Kafka Connect does not answer: "
                        + InMemoryConnectors.unreachable().getMessage(),
                unanswered.getMessage());
        assertEquals(
                "orders-sink",
                scaler.snapshot("orders-sink").name(),
                "a known sink is served from memory, Connect or not");
    }

    @Test
    void aPolicyIsSetOnlyOnASinkAndIsNotStoredOtherwise() {
        pipeline();
        watcher.sampleOnce();

        assertEquals(
                ScalerException.Problem.NOT_A_SINK,
                assertThrows(ScalerException.class, () -> scaler.putPolicy("datagen", POLICY))
                        .problem());
        assertEquals(Optional.empty(), scaler.policy("datagen"));

        scaler.putPolicy("orders-sink", POLICY);
        assertEquals(
                List.of("orders-sink"),
                scaler.policies().stream().map(AutoscaleLoop.State::connector).toList());
        assertTrue(scaler.removePolicy("orders-sink"));
        assertEquals(List.of(), scaler.policies());
    }

    @Test
    void aManualScaleUnderAnActivePolicyIsRefusedAndCountedByItsReason() {
        pipeline();
        watcher.sampleOnce();
        scaler.putPolicy("orders-sink", POLICY);

        ScalerException refused = assertThrows(
                ScalerException.class, () -> scaler.scale("orders-sink", new ScaleRequest(3, true, false)));

        assertEquals(ScalerException.Problem.CONFLICT, refused.problem());
        assertTrue(
                refused.getMessage().startsWith("orders-sink is under an active autoscale policy"),
                refused.getMessage());
        String metrics = new String(scaler.scrapeMetrics(), StandardCharsets.UTF_8);
        assertTrue(
                metrics.contains("kcscale_scale_actions_total{connector=\"orders-sink\",outcome=\"conflict\"} 1.0"),
                metrics);
        assertEquals(
                false,
                scaler.policy("orders-sink").orElseThrow().policy().dryRun(),
                "a refused scale leaves the policy active");
    }
}
