package io.kcscale.scaler.connect;

/**
 * The one remedy a wait for tasks applies itself. When a tasks.max write comes close behind another (two
 * scalers, a scaler and a user), Connect may start tasks from the task configs the earlier tasks.max generated
 * and fail them with {@code TooManyTasksException}, where they stay; restarted, they start from the configs of
 * the tasks.max Connect now holds. One restart per wait; until the wait's deadline such a failure is waited out
 * (the status may show it a moment after the restart), not taken as the end.
 */
public final class TooManyTasksRestart {

    private static final String EXCEPTION = "TooManyTasksException";

    private final ConnectApi connect;
    private boolean restarted;

    public TooManyTasksRestart(ConnectApi connect) {
        this.connect = connect;
    }

    /**
     * Whether Connect failed a task of {@code status} for being more than tasks.max; the first time, the
     * connector's failed tasks are restarted.
     */
    public boolean failedThatWay(String connector, ConnectorStatus status) {
        if (status.tasks().stream().noneMatch(t -> "FAILED".equals(t.state()) && t.trace() != null && t.trace().contains(EXCEPTION))) {
            return false;
        }
        if (!restarted) {
            connect.restartConnector(connector, true, true);
            restarted = true;
        }
        return true;
    }
}
