package io.kcscale.scaler.act;

import java.util.Map;

/**
 * The one write a scale makes: set a connector's task count, and nothing else of its configuration,
 * only while the connector still exists with the task count the scale's checks saw. Connect's REST API
 * is one way to write it ({@link ConnectTasksMaxWriter}); a KafkaConnector resource that Strimzi reconciles
 * into Connect is another ({@code kubernetes.StrimziTasksMaxWriter}). The scale's rules, checks, wait and
 * answer are the same for all.
 */
public interface TasksMaxWriter {

    /**
     * Sets {@code tasks.max} of {@code connector} to {@code tasks}; returns once the system took it.
     *
     * @param seen the connector's configuration as the scale read it before its checks
     * @throws ScaleException {@link ScaleException.Kind#GONE} when the connector no longer exists (it is not
     *                        re-created), {@link ScaleException.Kind#CONFLICT} when it changed since {@code seen} in a way
     *                        the write would undo (nothing is written), {@link ScaleException.Kind#UNCONFIRMED} when the
     *                        write got no answer (the message says what the system holds now),
     *                        {@link ScaleException.Kind#UNAVAILABLE} when the write was refused
     */
    void write(String connector, Map<String, String> seen, int tasks);

    /** How {@link #write} writes this connector, for the scale's plan. */
    String describe(String connector);
}
