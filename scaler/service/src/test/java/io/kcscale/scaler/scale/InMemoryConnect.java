package io.kcscale.scaler.scale;

import io.kcscale.scaler.act.WriteFence;
import io.kcscale.scaler.connect.ConnectRestException;
import io.kcscale.scaler.connect.ConnectorChange;
import io.kcscale.scaler.ports.ConnectApi;
import io.kcscale.scaler.ports.ConnectorStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

/**
 * A stand-in for Kafka Connect holding one connector in memory, for pure-logic tests of what calls
 * Connect. After a write (PUT or PATCH) its tasks do what {@link #afterPut} says, seen from the second
 * status read on (the first still shows the tasks from before, as Connect does for a moment). As
 * Connect does, a PUT creates a deleted connector again and a PATCH answers 404 for it.
 */
final class InMemoryConnect implements ConnectApi {

    /**
     * What the tasks do after a PUT: run as tasks.max says, fail, stay as they were, or fail as Connect fails tasks
     * started from configs of an earlier tasks.max (until a restart of the failed tasks runs them).
     */
    enum AfterPut {
        RUN,
        FAIL,
        STAY,
        FAIL_TOO_MANY
    }

    private final String name;
    private final String type;
    private Map<String, String> config;
    private List<ConnectorStatus.TaskStatus> tasks;
    private List<ConnectorStatus.TaskStatus> next;
    AfterPut afterPut = AfterPut.RUN;
    /** Thrown by a write when set; the config stays as it was. */
    ConnectRestException refusePut;
    /** Thrown by a write when set, after the write took effect: an answer lost on the way back. */
    ConnectRestException loseAnswer;
    /** When set, a write waits for it: a scale can be caught in progress. */
    CountDownLatch holdPut;
    /** Run once, as the first write starts: another actor's move between the scale's read and its write. */
    Runnable beforeFirstWrite;
    /** Run once, right after the first write took effect: another writer's move while the scale waits. */
    Runnable afterFirstWrite;
    /** A Connect before KIP-477: PATCH answers 405. */
    boolean patchUnsupported;

    volatile int putsStarted;
    /** Writes that took effect, PUTs and PATCHes alike. */
    int puts;

    int patches;
    /** Restarts of failed tasks asked for. */
    int restarts;

    private boolean deleted;

    /** @param running how many tasks run to begin with */
    InMemoryConnect(String name, String type, Map<String, String> config, int running) {
        this.name = name;
        this.type = type;
        this.config = Map.copyOf(config);
        this.tasks = running(running);
    }

    synchronized Map<String, String> config() {
        return config;
    }

    @Override
    public List<String> connectors() {
        return List.of(name);
    }

    @Override
    public synchronized Map<String, String> connectorConfig(String connector) {
        known(connector);
        return config;
    }

    @Override
    public synchronized ConnectorStatus connectorStatus(String connector) {
        known(connector);
        ConnectorStatus status = new ConnectorStatus(name, type, "RUNNING", "w0", tasks);
        if (next != null) {
            tasks = next;
            next = null;
        }
        return status;
    }

    @Override
    public synchronized Map<String, ConnectorView> connectorsExpanded() {
        return deleted
                ? Map.of()
                : Map.of(
                        name, new ConnectorView(name, config, new ConnectorStatus(name, type, "RUNNING", "w0", tasks)));
    }

    @Override
    public void putConnectorConfig(String connector, Map<String, String> newConfig) {
        startWrite();
        synchronized (this) {
            if (!name.equals(connector)) {
                throw new IllegalArgumentException("this stand-in holds only " + name);
            }
            deleted = false;
            write(newConfig);
        }
        answer();
    }

    @Override
    public void patchConnectorConfig(String connector, Map<String, String> changes) {
        startWrite();
        synchronized (this) {
            if (patchUnsupported) {
                throw new ConnectRestException(
                        405, "PATCH /connectors/" + connector + "/config -> 405: HTTP 405 Method Not Allowed");
            }
            known(connector);
            Map<String, String> merged = new HashMap<>(config);
            merged.putAll(changes);
            patches++;
            write(merged);
        }
        answer();
    }

    /** Another actor's edit of one key, as Connect would take it. */
    synchronized void edit(String key, String value) {
        Map<String, String> edited = new HashMap<>(config);
        edited.put(key, value);
        config = Map.copyOf(edited);
    }

    private void startWrite() {
        putsStarted++;
        Runnable first = beforeFirstWrite;
        beforeFirstWrite = null;
        if (first != null) {
            first.run();
        }
        if (holdPut != null) {
            try {
                holdPut.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void write(Map<String, String> newConfig) {
        if (refusePut != null) {
            throw refusePut;
        }
        puts++;
        config = Map.copyOf(newConfig);
        int count = ConnectorChange.tasksMax(newConfig);
        next = switch (afterPut) {
            case RUN -> running(count);
            case FAIL -> failed(count, "boom: no route to Elasticsearch\n\tat somewhere");
            case STAY -> null;
            case FAIL_TOO_MANY ->
                failed(
                        count,
                        "org.apache.kafka.connect.runtime.TooManyTasksException: The connector " + name
                                + " has generated " + (count + 1) + " tasks, which is greater than " + count
                                + "\n\tat somewhere");
        };
    }

    private void answer() {
        Runnable after = afterFirstWrite;
        afterFirstWrite = null;
        if (after != null) {
            after.run();
        }
        if (loseAnswer != null) {
            throw loseAnswer;
        }
    }

    @Override
    public void pauseConnector(String connector) {
        throw new UnsupportedOperationException("not used by the scale");
    }

    @Override
    public void resumeConnector(String connector) {
        throw new UnsupportedOperationException("not used by the scale");
    }

    @Override
    public synchronized void restartConnector(String connector, boolean includeTasks, boolean onlyFailed) {
        known(connector);
        if (!includeTasks || !onlyFailed) {
            throw new UnsupportedOperationException("the scale restarts only failed tasks");
        }
        restarts++;
        next = running(ConnectorChange.tasksMax(config));
    }

    @Override
    public synchronized void deleteConnector(String connector) {
        known(connector);
        deleted = true;
    }

    @Override
    public ConnectApi fenced(WriteFence fence) {
        return new FencedConnect(this, fence);
    }

    synchronized boolean exists() {
        return !deleted;
    }

    private void known(String connector) {
        if (!name.equals(connector) || deleted) {
            throw new ConnectRestException.ConnectorNotFound("Connector " + connector + " not found");
        }
    }

    private static List<ConnectorStatus.TaskStatus> running(int count) {
        return IntStream.range(0, count)
                .mapToObj(id -> new ConnectorStatus.TaskStatus(id, "RUNNING", "w0", null))
                .toList();
    }

    private static List<ConnectorStatus.TaskStatus> failed(int count, String trace) {
        List<ConnectorStatus.TaskStatus> tasks = new ArrayList<>(running(count));
        tasks.set(0, new ConnectorStatus.TaskStatus(0, "FAILED", "w0", trace));
        return tasks;
    }
}
