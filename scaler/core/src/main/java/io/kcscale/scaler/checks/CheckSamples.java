package io.kcscale.scaler.checks;

import io.kcscale.scaler.checks.keys.KeySample;
import io.kcscale.scaler.model.PipelineSample;
import io.kcscale.scaler.model.SinkTarget;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What the checks judge beyond the snapshot, as the observers read it: raw facts, no verdicts. A
 * part whose system did not answer is null; the check that needs it reports {@code info} saying so.
 *
 * @param tasksWanted     the task count to judge: tasks.max now, or what a scale asks for
 * @param window          the watcher's samples over its window, oldest first
 * @param keys            recent records' keys and field values, one sample per topic the sink reads (up to
 *                        {@link #SAMPLED_TOPICS} topics, in the sink's topic order), or null with {@code keysUnavailable}
 *                        saying why
 * @param sinkConfig      the sink connector's config, or null
 * @param connectorState  the sink connector's own state (e.g. RUNNING, FAILED), or null
 * @param taskTraces      the trace Connect reports for each task that has one (failed tasks), by task id
 * @param otherConnectors every other connector with its type, state and config, or null
 * @param workerConfig    the Connect worker's properties when the scaler was given them, else empty
 * @param groupAssignor   the assignor the sink group uses (e.g. range), empty when the group has no members, or null
 * @param groupProtocol   the group's protocol type (CLASSIC or CONSUMER), or null
 * @param brokers         brokers in the Kafka cluster, or null
 * @param workerCpu       each Connect worker's CPU where the scaler could read it, or null with
 *                        {@code workerCpuUnavailable} saying why
 * @param rebalanceDelay  how long Connect keeps a lost worker's tasks for it before it reassigns them, as the scaler
 *                        assumes it ({@code scheduled.rebalance.max.delay.ms}: Connect's REST API does not say)
 */
public record CheckSamples(
        int tasksWanted,
        List<PipelineSample> window,
        List<KeySample> keys,
        String keysUnavailable,
        Map<String, String> sinkConfig,
        String connectorState,
        Map<Integer, String> taskTraces,
        List<Connector> otherConnectors,
        Map<String, String> workerConfig,
        String groupAssignor,
        String groupProtocol,
        Integer brokers,
        List<WorkerCpu> workerCpu,
        String workerCpuUnavailable,
        Duration rebalanceDelay) {

    /** The most topics of one sink whose keys a check samples: each costs a consumer's start and a share of the budget. */
    public static final int SAMPLED_TOPICS = 8;

    /**
     * A connector as Connect lists it.
     *
     * @param indexes the Elasticsearch indexes it writes to (named by the operator or derived from its config and its
     *                {@code topics} list), as named (an alias is not resolved); empty for none
     */
    public record Connector(String name, String type, String state, Map<String, String> config, List<String> indexes) {

        /** A connector whose indexes, if any, are those its config names. */
        public Connector(String name, String type, String state, Map<String, String> config) {
            this(name, type, state, config, SinkTarget.indexes(config, SinkTarget.topics(config)));
        }

        public boolean isSink() {
            return "sink".equals(type);
        }

        public boolean isSource() {
            return "source".equals(type);
        }
    }
}
