package io.kcscale.scaler.ports;

import io.kcscale.scaler.act.WriteFence;
import io.kcscale.scaler.connect.ConnectRestException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Connect's listing held in memory, for what only reads it (the observers, the facade's sink lookup): connectors with
 * their config and status. Writes are not this stand-in's business. {@link #down} fails every call as an unreachable
 * Connect does.
 */
public final class InMemoryConnectors implements ConnectApi {

    private final Map<String, ConnectorView> views = new ConcurrentHashMap<>();
    public final AtomicInteger listings = new AtomicInteger();
    /** When set, every call throws it. */
    public volatile ConnectRestException down;

    /** A connector of {@code type} (sink or source) running {@code tasks} tasks, all on {@code worker}. */
    public InMemoryConnectors connector(
            String name, String type, Map<String, String> config, int tasks, String worker) {
        List<ConnectorStatus.TaskStatus> running = java.util.stream.IntStream.range(0, tasks)
                .mapToObj(t -> new ConnectorStatus.TaskStatus(t, "RUNNING", worker, null))
                .toList();
        return connector(name, config, new ConnectorStatus(name, type, "RUNNING", worker, running));
    }

    public InMemoryConnectors connector(String name, Map<String, String> config, ConnectorStatus status) {
        views.put(name, new ConnectorView(name, Map.copyOf(config), status));
        return this;
    }

    public void delete(String name) {
        views.remove(name);
    }

    public static ConnectRestException unreachable() {
        return new ConnectRestException.Unreachable(
                "Kafka Connect at http://connect:8083/ is unreachable: ConnectException", null);
    }

    @Override
    public Map<String, ConnectorView> connectorsExpanded() {
        failIfDown();
        listings.incrementAndGet();
        return new TreeMap<>(views);
    }

    @Override
    public List<String> connectors() {
        failIfDown();
        return List.copyOf(new TreeMap<>(views).keySet());
    }

    @Override
    public Map<String, String> connectorConfig(String name) {
        return view(name).config();
    }

    @Override
    public ConnectorStatus connectorStatus(String name) {
        return view(name).status();
    }

    private ConnectorView view(String name) {
        failIfDown();
        ConnectorView view = views.get(name);
        if (view == null) {
            throw new ConnectRestException.ConnectorNotFound(
                    "GET /connectors/" + name + " -> 404: Connector " + name + " not found");
        }
        return view;
    }

    private void failIfDown() {
        ConnectRestException e = down;
        if (e != null) {
            throw e;
        }
    }

    @Override
    public void putConnectorConfig(String name, Map<String, String> config) {
        throw new UnsupportedOperationException("a read-only stand-in");
    }

    @Override
    public void patchConnectorConfig(String name, Map<String, String> changes) {
        throw new UnsupportedOperationException("a read-only stand-in");
    }

    @Override
    public void pauseConnector(String name) {
        throw new UnsupportedOperationException("a read-only stand-in");
    }

    @Override
    public void resumeConnector(String name) {
        throw new UnsupportedOperationException("a read-only stand-in");
    }

    @Override
    public void restartConnector(String name, boolean includeTasks, boolean onlyFailed) {
        throw new UnsupportedOperationException("a read-only stand-in");
    }

    @Override
    public void deleteConnector(String name) {
        throw new UnsupportedOperationException("a read-only stand-in");
    }

    /** Writes are not this stand-in's business: nothing to fence. */
    @Override
    public ConnectApi fenced(WriteFence fence) {
        return this;
    }
}
