package io.kcscale.scaler.service;

import io.kcscale.scaler.autoscale.AutoscaleEvaluator;
import io.kcscale.scaler.autoscale.AutoscalePolicy;
import io.kcscale.scaler.autoscale.Decision;
import io.kcscale.scaler.autoscale.PolicyMemory;
import io.kcscale.scaler.autoscale.Recommendation;
import io.kcscale.scaler.autoscale.ScalingRule;
import io.kcscale.scaler.checks.CheckReport;
import io.kcscale.scaler.checks.keys.SampleBudget;
import io.kcscale.scaler.connect.ConnectRestException;
import io.kcscale.scaler.kafka.StateTopic;
import io.kcscale.scaler.loop.AutoscaleLoop;
import io.kcscale.scaler.model.PipelineSample;
import io.kcscale.scaler.model.PipelineSnapshot;
import io.kcscale.scaler.model.RecordAge;
import io.kcscale.scaler.model.SnapshotHistory;
import io.kcscale.scaler.model.TopicPartition;
import io.kcscale.scaler.observe.PipelineWatcher;
import io.kcscale.scaler.ports.ConnectApi;
import io.kcscale.scaler.ports.ConnectorStatus;
import io.kcscale.scaler.ports.RecordTimestamps;
import io.kcscale.scaler.ports.ScalerException;
import io.kcscale.scaler.predict.LiveTaskPrediction;
import io.kcscale.scaler.predict.TasksRequest;
import io.kcscale.scaler.predict.TasksResult;
import io.kcscale.scaler.scale.ScaleAction;
import io.kcscale.scaler.scale.ScaleRequest;
import io.kcscale.scaler.scale.ScaleResult;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The scaler over one connected pipeline, as the API (and any other caller) uses it: snapshots, checks, the
 * scale, autoscale policies and recommendations, and this replica's place among the replicas. Routes only
 * translate HTTP to these calls and back; what to answer for a name that is no sink, or for a manual scale beside
 * a policy, is decided here and in the core.
 */
public final class Scaler {

    private final PipelineWatcher watcher;
    private final ConnectApi connect;
    private final ScalingChecks checks;
    private final ScaleAction scaleAction;
    private final AutoscaleLoop autoscaler;
    private final AutoscaleEvaluator evaluator;
    private final ScalerMetrics metrics;
    private final String instanceId;
    private final Supplier<Optional<String>> autoscalingOff;
    private final Supplier<Optional<StateTopic>> stateTopic;
    private final RecordTimestamps recordTimestamps;
    private final Optional<String> token;

    /**
     * @param connect    asked whether a name the watcher does not know is a sink
     * @param instanceId this replica's id among the scaler's replicas
     * @param autoscalingOff why this replica does not autoscale (it cannot read the state topic), or empty when it can
     * @param stateTopic the state topic as this replica found it, once it read it
     * @param recordTimestamps reads the records at the committed offsets when a user asks to cross-check the lag's age
     * @param token      the bearer token mutating calls need, if one is set
     */
    public Scaler(
            PipelineWatcher watcher,
            ConnectApi connect,
            ScalingChecks checks,
            ScaleAction scaleAction,
            AutoscaleLoop autoscaler,
            AutoscaleEvaluator evaluator,
            ScalerMetrics metrics,
            String instanceId,
            Supplier<Optional<String>> autoscalingOff,
            Supplier<Optional<StateTopic>> stateTopic,
            RecordTimestamps recordTimestamps,
            Optional<String> token) {
        this.watcher = watcher;
        this.connect = connect;
        this.checks = checks;
        this.scaleAction = scaleAction;
        this.autoscaler = autoscaler;
        this.evaluator = evaluator;
        this.metrics = metrics;
        this.instanceId = instanceId;
        this.autoscalingOff = autoscalingOff;
        this.stateTopic = stateTopic;
        this.recordTimestamps = recordTimestamps;
        this.token = token;
    }

    /** Every observed sink connector's latest snapshot, by name. */
    public List<PipelineSnapshot> snapshots() {
        return watcher.snapshots();
    }

    /** The connector's latest snapshot, as the last sampling round left it; empty while it is not observed. */
    public Optional<PipelineSnapshot> observed(String name) {
        return watcher.snapshot(name);
    }

    /**
     * What {@code rule} decides for the connector now, through the evaluator the autoscaler decides by (its holds
     * included), for a rule run without a stored policy: the lab's benchmarks.
     *
     * @param memory what the rule learned from its earlier evaluations; the rule updates it
     */
    public Decision decide(String name, ScalingRule rule, PolicyMemory memory, long nowMillis) {
        return evaluator.evaluate(name, watcher.snapshot(name), checks.blockingFindings(name), rule, memory, nowMillis);
    }

    /**
     * The connector's latest snapshot; a sink created since the last round is sampled now rather than at the next.
     *
     * @throws ScalerException when there is none to give
     */
    public PipelineSnapshot snapshot(String name) {
        Optional<PipelineSnapshot> known = watcher.snapshot(name);
        if (known.isPresent()) {
            return known.get();
        }
        requireSink(name);
        watcher.sampleOnce();
        return watcher.snapshot(name)
                .orElseThrow(() -> new ScalerException(
                        ScalerException.Problem.NOT_OBSERVED_YET,
                        name + " is not observed yet; retry in a few seconds"));
    }

    /**
     * Returns when {@code name} is a sink connector Connect knows.
     *
     * @throws ScalerException for a connector that does not exist, is not a sink, or when Connect cannot tell
     */
    public void requireSink(String name) {
        Optional<String> type = watcher.nonSinkType(name);
        if (type.isPresent()) {
            throw notASink(name, type.get());
        }
        try {
            ConnectorStatus status = connect.connectorStatus(name);
            if (!status.isSink()) {
                throw notASink(name, status.type());
            }
        } catch (ConnectRestException.ConnectorNotFound e) {
            throw new ScalerException(ScalerException.Problem.UNKNOWN_CONNECTOR, "no connector named " + name);
        } catch (ConnectRestException.PathRejected e) {
            throw ScaleAction.pathRejected(connect, name, e);
        } catch (ConnectRestException.ConfigRejected e) {
            // Connect refuses such a name in a path (control characters, say), so no connector has it
            throw new ScalerException(
                    ScalerException.Problem.UNKNOWN_CONNECTOR,
                    "no connector named " + name + " (Kafka Connect rejects the name)");
        } catch (ConnectRestException e) {
            throw new ScalerException(
                    ScalerException.Problem.CONNECT_UNAVAILABLE,
                    name + " is unknown and Kafka Connect does not answer: " + e.getMessage());
        }
    }

    private static ScalerException notASink(String name, String type) {
        return new ScalerException(
                ScalerException.Problem.NOT_A_SINK,
                name + " is a " + type + " connector: the scaler observes sink connectors");
    }

    /** Every check's finding for the connector, judged against its current tasks.max. */
    public CheckReport checks(String name, SampleBudget budget) {
        return checks.run(snapshot(name), budget);
    }

    /**
     * {@code predict tasks} for a connector: sized from the per-task capacity the scaler measures on it, the checks
     * judged for the tasks the answer plans.
     *
     * @throws ScalerException as {@link #snapshot}
     * @throws LiveTaskPrediction.UnknownCapacityException when the capacity is unknown, saying why
     */
    public TasksResult predictTasks(TasksRequest request) {
        PipelineSnapshot s = snapshot(request.connector());
        return LiveTaskPrediction.predict(request, s, tasks -> checks.findings(s, tasks));
    }

    /**
     * A user's scale: refused under an active autoscale policy unless forced, which pauses the policy just before the
     * write; counted in the metrics, refusals by their reason.
     *
     * @throws ScalerException when the scale was not carried out (or not to the end)
     */
    public ScaleResult scale(String name, ScaleRequest request) {
        try {
            Optional<String> policy = autoscaler.admitManualScale(name, request.force(), request.dryRun());
            ScaleResult result = scaleAction.scale(name, request, () -> autoscaler.pause(name));
            metrics.recordScale(result);
            return policy.map(result::withAutoscale).orElse(result);
        } catch (ScalerException e) {
            metrics.recordRefusal(name, e.problem().name());
            throw e;
        }
    }

    /** Sets (or replaces) the autoscale policy of a sink connector; stored before it takes effect. */
    public AutoscaleLoop.State putPolicy(String name, AutoscalePolicy policy) {
        AutoscalePolicy valid = policy.validated();
        requireSink(name);
        return autoscaler.put(name, valid);
    }

    public Optional<AutoscaleLoop.State> policy(String name) {
        return autoscaler.state(name);
    }

    /** The policies of the observed connectors, by connector name. */
    public List<AutoscaleLoop.State> policies() {
        return watcher.snapshots().stream()
                .flatMap(snapshot -> autoscaler.state(snapshot.name()).stream())
                .toList();
    }

    /** Stops autoscaling a connector; false when it had no policy. */
    public boolean removePolicy(String name) {
        return autoscaler.remove(name);
    }

    /**
     * What the connector's policy would set now; empty when it has no policy.
     *
     * @throws ScalerException when the connector has no snapshot to give
     * @throws IllegalStateException when its pipeline is degraded (no tasks to recommend)
     */
    public Optional<Recommendation> recommend(String name) {
        snapshot(name);
        return autoscaler.recommend(name);
    }

    public String instanceId() {
        return instanceId;
    }

    /** What the scaler sampled of a sink connector over the last 10 minutes, oldest first; as {@link #snapshot} when it has none. */
    public List<SnapshotHistory.Point> history(String name) {
        snapshot(name);
        return watcher.history(name);
    }

    /**
     * The lag's age cross-checked against the records themselves: for the partitions with lag (oldest first, at most
     * {@link RecordAge#MAX_PARTITIONS}), the timestamp of the record at the committed offset beside the scaler's
     * interpolated age.
     *
     * @throws ScalerException as {@link #snapshot}
     */
    public List<RecordAge> recordAges(String name, long nowMillis) {
        PipelineSnapshot s = snapshot(name);
        List<PipelineSample> window = watcher.window(name);
        Map<TopicPartition, Long> committed =
                window.isEmpty() || window.get(window.size() - 1).committedOffsets() == null
                        ? Map.of()
                        : window.get(window.size() - 1).committedOffsets();
        List<PipelineSnapshot.PartitionLag> checked = RecordAge.toCheck(s.lag().partitions(), committed);
        Map<TopicPartition, Long> offsets = new TreeMap<>();
        checked.forEach(p -> {
            TopicPartition tp = new TopicPartition(p.topic(), p.partition());
            offsets.put(tp, committed.get(tp));
        });
        return RecordAge.of(checked, committed, recordTimestamps.at(offsets), nowMillis);
    }

    /** Whether this replica is the one that autoscales. */
    public boolean leads() {
        return autoscaler.leads();
    }

    public Optional<String> leaderId() {
        return autoscaler.leaderId();
    }

    /** Why this replica does not autoscale (it cannot read the state topic), or empty when it can. */
    public Optional<String> autoscalingOff() {
        return autoscalingOff.get();
    }

    /** The state topic as this replica found it when it opened it; empty until then. */
    public Optional<StateTopic> stateTopic() {
        return stateTopic.get();
    }

    /** The Prometheus text exposition of the scaler's metrics. */
    public byte[] scrapeMetrics() {
        return metrics.scrape();
    }

    /** The bearer token mutating calls must carry, if one is set. */
    public Optional<String> token() {
        return token;
    }
}
