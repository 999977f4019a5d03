package io.kcscale.scaler.checks;

/**
 * What a check may need beyond the snapshot, as {@link CheckSamples} carries it: each check declares its own, and the
 * observer reads only what the checks it runs need (sampling a topic's keys, say, costs seconds of a consumer). The task
 * count judged and the assumed reassignment delay are always given.
 */
public enum CheckInput {
    /** The watcher's samples over its window ({@link CheckSamples#window()}). */
    WINDOW,
    /** A sample of each topic's newest records' keys ({@link CheckSamples#keys()}). */
    KEYS,
    /**
     * Every connector as Connect lists it: the sink's config, state and task traces, and the others
     * ({@link CheckSamples#sinkConfig()}, {@link CheckSamples#connectorState()}, {@link CheckSamples#taskTraces()},
     * {@link CheckSamples#otherConnectors()}).
     */
    CONNECTORS,
    /** The sink group's assignor and protocol ({@link CheckSamples#groupAssignor()}, {@link CheckSamples#groupProtocol()}). */
    GROUP,
    /** The Kafka cluster's brokers ({@link CheckSamples#brokers()}). */
    BROKERS,
    /** The Connect worker's properties, when the scaler was given them ({@link CheckSamples#workerConfig()}). */
    WORKER_CONFIG,
    /** Each worker's CPU ({@link CheckSamples#workerCpu()}). */
    WORKER_CPU
}
