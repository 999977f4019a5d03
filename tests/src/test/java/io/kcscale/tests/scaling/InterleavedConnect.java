package io.kcscale.tests.scaling;

import io.kcscale.scaler.act.WriteFence;
import io.kcscale.scaler.ports.ConnectApi;
import io.kcscale.scaler.ports.ConnectorStatus;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The real Connect, with another actor's move run once just before the first write (PUT or PATCH) reaches
 * it: a concurrent edit or delete landed exactly between a scale's read and its write, every time.
 */
final class InterleavedConnect implements ConnectApi {

    private final ConnectApi connect;
    private final AtomicReference<Runnable> beforeFirstWrite;

    InterleavedConnect(ConnectApi connect, Runnable beforeFirstWrite) {
        this(connect, new AtomicReference<>(beforeFirstWrite));
    }

    private InterleavedConnect(ConnectApi connect, AtomicReference<Runnable> beforeFirstWrite) {
        this.connect = connect;
        this.beforeFirstWrite = beforeFirstWrite;
    }

    /** The same move, once among this and every fenced view of it. */
    @Override
    public ConnectApi fenced(WriteFence fence) {
        return new InterleavedConnect(connect.fenced(fence), beforeFirstWrite);
    }

    private void interleave() {
        Runnable move = beforeFirstWrite.getAndSet(null);
        if (move != null) {
            move.run();
        }
    }

    @Override
    public void putConnectorConfig(String name, Map<String, String> config) {
        interleave();
        connect.putConnectorConfig(name, config);
    }

    @Override
    public void patchConnectorConfig(String name, Map<String, String> changes) {
        interleave();
        connect.patchConnectorConfig(name, changes);
    }

    @Override
    public List<String> connectors() {
        return connect.connectors();
    }

    @Override
    public Map<String, String> connectorConfig(String name) {
        return connect.connectorConfig(name);
    }

    @Override
    public ConnectorStatus connectorStatus(String name) {
        return connect.connectorStatus(name);
    }

    @Override
    public Map<String, ConnectorView> connectorsExpanded() {
        return connect.connectorsExpanded();
    }

    @Override
    public void pauseConnector(String name) {
        connect.pauseConnector(name);
    }

    @Override
    public void resumeConnector(String name) {
        connect.resumeConnector(name);
    }

    @Override
    public void restartConnector(String name, boolean includeTasks, boolean onlyFailed) {
        connect.restartConnector(name, includeTasks, onlyFailed);
    }

    @Override
    public void deleteConnector(String name) {
        connect.deleteConnector(name);
    }
}
