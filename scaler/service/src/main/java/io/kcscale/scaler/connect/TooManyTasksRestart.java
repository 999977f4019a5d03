package io.kcscale.scaler.connect;

import io.kcscale.scaler.ports.ConnectApi;
import io.kcscale.scaler.ports.ConnectorStatus;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The one remedy a wait for tasks applies itself. When a tasks.max write comes close behind another (two
 * scalers, a scaler and a user), Connect may start tasks from the task configs the earlier tasks.max generated
 * and fail them with {@code TooManyTasksException}, where they stay; restarted, they start from the configs of
 * the tasks.max Connect now holds, once Connect has generated them. A few restarts per wait, some seconds apart (a
 * restart before the new configs exist fails the same way); until the wait's deadline such a failure is waited
 * out, not taken as the end.
 */
public final class TooManyTasksRestart {

    private static final String EXCEPTION = "TooManyTasksException";
    static final int MAX_RESTARTS = 3;
    static final long RESTART_SPACING_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final ConnectApi connect;
    private final LongSupplier nanoClock;
    private int restarts;
    private long lastRestart;

    public TooManyTasksRestart(ConnectApi connect) {
        this(connect, System::nanoTime);
    }

    TooManyTasksRestart(ConnectApi connect, LongSupplier nanoClock) {
        this.connect = connect;
        this.nanoClock = nanoClock;
    }

    /**
     * Whether Connect failed a task of {@code status} for being more than tasks.max; if so, the connector's failed
     * tasks are restarted, unless they were a moment ago or {@link #MAX_RESTARTS} times already.
     */
    public boolean failedThatWay(String connector, ConnectorStatus status) {
        if (status.tasks().stream()
                .noneMatch(t -> "FAILED".equals(t.state())
                        && t.trace() != null
                        && t.trace().contains(EXCEPTION))) {
            return false;
        }
        long now = nanoClock.getAsLong();
        if (restarts < MAX_RESTARTS && (restarts == 0 || now - lastRestart >= RESTART_SPACING_NANOS)) {
            connect.restartConnector(connector, true, true);
            restarts++;
            lastRestart = now;
        }
        return true;
    }
}
