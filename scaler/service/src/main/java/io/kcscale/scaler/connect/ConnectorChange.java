package io.kcscale.scaler.connect;

import io.kcscale.scaler.poll.Poll;
import io.kcscale.scaler.poll.PollTimeoutException;
import io.kcscale.scaler.ports.ConnectApi;
import io.kcscale.scaler.ports.ConnectorStatus;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * A change to a connector's config, then the wait until it runs: the whole config is PUT (Connect
 * validates it and applies all of it or none) and then polled until exactly N tasks exist and all are
 * RUNNING. A FAILED task ends the wait at once, with the first line of its trace, unless Connect failed it for
 * being more than tasks.max ({@link TooManyTasksRestart}).
 */
public final class ConnectorChange {

    private static final Duration INTERVAL = Duration.ofMillis(200);

    private final ConnectApi connect;
    private final Duration timeout;

    /** @param timeout how long the tasks may take to run under the new config */
    public ConnectorChange(ConnectApi connect, Duration timeout) {
        this.connect = connect;
        this.timeout = timeout;
    }

    /**
     * Writes {@code config} as the connector's whole config and waits for {@code tasks} RUNNING tasks.
     *
     * @throws ConnectRestException when Connect does not take the config: the connector is as it was
     * @throws PollTimeoutException when the config is in place but the tasks did not all run in time, or one FAILED
     */
    public ConnectorStatus put(String connector, Map<String, String> config, int tasks) {
        connect.putConnectorConfig(connector, config);
        return awaitRunning(connector, tasks);
    }

    /**
     * A read-modify-write: {@code edit} changes a copy of the config as Connect holds it, which is then
     * {@link #put} with as many tasks awaited as its tasks.max says.
     */
    public ConnectorStatus edit(String connector, Consumer<Map<String, String>> edit) {
        Map<String, String> config = new LinkedHashMap<>(connect.connectorConfig(connector));
        edit.accept(config);
        return put(connector, config, tasksMax(config));
    }

    /**
     * Waits until exactly {@code tasks} tasks exist and all are RUNNING.
     *
     * @throws PollTimeoutException when they do not within the timeout, or as soon as one is FAILED
     */
    public ConnectorStatus awaitRunning(String connector, int tasks) {
        TooManyTasksRestart restart = new TooManyTasksRestart(connect);
        return Poll.until(
                awaiting(connector, tasks),
                timeout,
                INTERVAL,
                () -> runningExactly(connect, connector, tasks, restart));
    }

    /**
     * One probe of a wait for exactly {@code tasks} RUNNING tasks, reading the status; tasks Connect failed for
     * being more than tasks.max are restarted (a few times, some seconds apart) and waited for (see {@link TooManyTasksRestart}).
     */
    public static Optional<ConnectorStatus> runningExactly(
            ConnectApi connect, String connector, int tasks, TooManyTasksRestart restart) {
        ConnectorStatus status = connect.connectorStatus(connector);
        if (restart.failedThatWay(connector, status)) {
            throw new IllegalStateException(
                    "tasks Connect failed as more than tasks.max, restarted: " + status.tasks());
        }
        return runningExactly(status, tasks);
    }

    /** What {@link #awaitRunning} waits for, in words. */
    public static String awaiting(String connector, int tasks) {
        return "exactly " + tasks + " RUNNING tasks of " + connector;
    }

    /**
     * One probe of a {@link Poll} wait for exactly {@code tasks} RUNNING tasks: the status once they run.
     *
     * @throws Poll.Abort when a task FAILED, with the first line of its trace
     * @throws IllegalStateException naming the tasks while they do not run yet
     */
    private static Optional<ConnectorStatus> runningExactly(ConnectorStatus status, int tasks) {
        status.tasks().stream()
                .filter(t -> "FAILED".equals(t.state()))
                .findFirst()
                .ifPresent(t -> {
                    throw new Poll.Abort("task " + t.id() + " FAILED: " + firstLine(t.trace()));
                });
        if (status.tasks().size() == tasks && status.tasksInState("RUNNING") == tasks) {
            return Optional.of(status);
        }
        throw new IllegalStateException("tasks " + status.tasks());
    }

    /**
     * A config's tasks.max (Connect's default of 1 when unset).
     *
     * @throws NumberFormatException when it is not a number
     */
    public static int tasksMax(Map<String, String> config) {
        return Integer.parseInt(config.getOrDefault("tasks.max", "1").trim());
    }

    private static String firstLine(String trace) {
        return trace == null ? "(no trace)" : trace.lines().findFirst().orElse("");
    }
}
