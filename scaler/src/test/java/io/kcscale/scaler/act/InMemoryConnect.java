package io.kcscale.scaler.act;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import io.kcscale.scaler.connect.ConnectApi;
import io.kcscale.scaler.connect.ConnectRestException;
import io.kcscale.scaler.connect.ConnectorChange;
import io.kcscale.scaler.connect.ConnectorStatus;

/**
 * A stand-in for Kafka Connect holding one connector in memory, for pure-logic tests of what calls
 * Connect. After a PUT its tasks do what {@link #afterPut} says, seen from the second status read on
 * (the first still shows the tasks from before, as Connect does for a moment).
 */
final class InMemoryConnect implements ConnectApi {

    /** What the tasks do after a PUT: run as tasks.max says, fail, or stay as they were. */
    enum AfterPut { RUN, FAIL, STAY }

    private final String name;
    private final String type;
    private Map<String, String> config;
    private List<ConnectorStatus.TaskStatus> tasks;
    private List<ConnectorStatus.TaskStatus> next;
    AfterPut afterPut = AfterPut.RUN;
    /** Thrown by a PUT when set; the config stays as it was. */
    ConnectRestException refusePut;
    /** When set, a PUT waits for it: a scale can be caught in progress. */
    CountDownLatch holdPut;
    volatile int putsStarted;
    int puts;

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
    public void putConnectorConfig(String connector, Map<String, String> newConfig) {
        putsStarted++;
        if (holdPut != null) {
            try {
                holdPut.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (this) {
            known(connector);
            if (refusePut != null) {
                throw refusePut;
            }
            puts++;
            config = Map.copyOf(newConfig);
            int count = ConnectorChange.tasksMax(newConfig);
            next = switch (afterPut) {
                case RUN -> running(count);
                case FAIL -> failed(count);
                case STAY -> null;
            };
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
    public void restartConnector(String connector, boolean includeTasks, boolean onlyFailed) {
        throw new UnsupportedOperationException("not used by the scale");
    }

    @Override
    public void deleteConnector(String connector) {
        throw new UnsupportedOperationException("not used by the scale");
    }

    private void known(String connector) {
        if (!name.equals(connector)) {
            throw new ConnectRestException.ConnectorNotFound("Connector " + connector + " not found");
        }
    }

    private static List<ConnectorStatus.TaskStatus> running(int count) {
        return IntStream.range(0, count).mapToObj(id -> new ConnectorStatus.TaskStatus(id, "RUNNING", "w0", null)).toList();
    }

    private static List<ConnectorStatus.TaskStatus> failed(int count) {
        List<ConnectorStatus.TaskStatus> tasks = new ArrayList<>(running(count));
        tasks.set(0, new ConnectorStatus.TaskStatus(0, "FAILED", "w0", "boom: no route to Elasticsearch\n\tat somewhere"));
        return tasks;
    }
}
