package io.kcscale.scaler.connect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.scaler.ports.ConnectApi;
import io.kcscale.scaler.ports.ConnectorStatus;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TooManyTasksRestartTest {

    private final AtomicInteger restarts = new AtomicInteger();
    private final AtomicLong nanos = new AtomicLong();
    /** Connect as far as the remedy uses it: a restart of the failed tasks, counted. */
    private final ConnectApi connect = (ConnectApi) Proxy.newProxyInstance(
            ConnectApi.class.getClassLoader(), new Class<?>[] {ConnectApi.class}, (proxy, method, args) -> {
                if (!method.getName().equals("restartConnector") || !(Boolean) args[1] || !(Boolean) args[2]) {
                    throw new UnsupportedOperationException(method.getName());
                }
                restarts.incrementAndGet();
                return null;
            });

    private final TooManyTasksRestart remedy = new TooManyTasksRestart(connect, nanos::get);

    private static ConnectorStatus withTask0(String state, String trace) {
        return new ConnectorStatus(
                "sink",
                "sink",
                "RUNNING",
                "w0",
                List.of(
                        new ConnectorStatus.TaskStatus(0, state, "w0", trace),
                        new ConnectorStatus.TaskStatus(1, "RUNNING", "w0", null)));
    }

    @Test
    void restartsTasksFailedAsMoreThanTasksMaxAFewTimesSomeSecondsApart() {
        ConnectorStatus tooMany = withTask0(
                "FAILED",
                "org.apache.kafka.connect.runtime.TooManyTasksException: The connector sink"
                        + " has generated 3 tasks, which is greater than 2\n\tat somewhere");
        assertTrue(remedy.failedThatWay("sink", tooMany));
        assertTrue(remedy.failedThatWay("sink", tooMany), "seen again a moment later: waited out");
        assertEquals(1, restarts.get(), "not restarted again at once");
        for (int i = 0; i < 5; i++) {
            nanos.addAndGet(TimeUnit.SECONDS.toNanos(5));
            assertTrue(remedy.failedThatWay("sink", tooMany));
        }
        assertEquals(TooManyTasksRestart.MAX_RESTARTS, restarts.get(), "bounded");
    }

    @Test
    void otherFailuresAndRunningTasksAreNotItsBusiness() {
        assertFalse(remedy.failedThatWay("sink", withTask0("FAILED", "boom: no route to Elasticsearch")));
        assertFalse(remedy.failedThatWay("sink", withTask0("RUNNING", null)));
        assertEquals(0, restarts.get());
    }
}
