package io.kcscale.scaler.ports;

import io.kcscale.scaler.act.WriteFence;
import java.util.Map;

/**
 * Port: the one write a scale makes: set a connector's task count, and nothing else of its configuration,
 * only while the connector still exists with the task count the scale's checks saw. Connect's REST API
 * is one way to write it ({@code connect.ConnectTasksMaxWriter}); a KafkaConnector resource that Strimzi reconciles
 * into Connect is another ({@code kubernetes.StrimziTasksMaxWriter}). The scale's rules, checks, wait and
 * answer are the same for all.
 */
public interface TasksMaxWriter {

    /**
     * Sets {@code tasks.max} of {@code connector} to {@code tasks}; returns once the system took it.
     *
     * @param seen  the connector's configuration as the scale read it before its checks
     * @param fence asked right before each write (each attempt of it); a write it stops is not sent
     * @throws ScalerException {@link ScalerException.Problem#GONE} when the connector no longer exists (it is
     *                                not re-created), {@link ScalerException.Problem#CONFLICT} when it changed since
     *                                {@code seen} in a way the write would undo (nothing is written),
     *                                {@link ScalerException.Problem#UNCONFIRMED} when the write got no answer (the
     *                                message says what the system holds now), {@link ScalerException.Problem#REFUSED}
     *                                when the system denied the writer the right to write, and
     *                                {@link ScalerException.Problem#UNAVAILABLE} when the write was refused otherwise
     */
    void write(String connector, Map<String, String> seen, int tasks, WriteFence fence);

    /** How {@link #write} writes this connector, for the scale's plan. */
    String describe(String connector);
}
