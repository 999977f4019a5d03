package io.kcscale.scaler.scale;

import io.kcscale.scaler.act.WriteFence;
import io.kcscale.scaler.ports.ConnectApi;
import io.kcscale.scaler.ports.ConnectorStatus;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** A stand-in Connect with a fence asked right before each write, as the real client asks it before each attempt. */
final class FencedConnect implements ConnectApi {

    /** What the stand-in tells the fence a write may take: the service's request timeout. */
    static final Duration WRITE_TIMEOUT = Duration.ofSeconds(3);

    private final ConnectApi connect;
    private final WriteFence fence;

    FencedConnect(ConnectApi connect, WriteFence fence) {
        this.connect = connect;
        this.fence = fence;
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
    public void putConnectorConfig(String name, Map<String, String> config) {
        fence.beforeWrite("PUT " + name, WRITE_TIMEOUT);
        connect.putConnectorConfig(name, config);
    }

    @Override
    public void patchConnectorConfig(String name, Map<String, String> changes) {
        fence.beforeWrite("PATCH " + name, WRITE_TIMEOUT);
        connect.patchConnectorConfig(name, changes);
    }

    @Override
    public void pauseConnector(String name) {
        fence.beforeWrite("pause " + name, WRITE_TIMEOUT);
        connect.pauseConnector(name);
    }

    @Override
    public void resumeConnector(String name) {
        fence.beforeWrite("resume " + name, WRITE_TIMEOUT);
        connect.resumeConnector(name);
    }

    @Override
    public void restartConnector(String name, boolean includeTasks, boolean onlyFailed) {
        fence.beforeWrite("restart " + name, WRITE_TIMEOUT);
        connect.restartConnector(name, includeTasks, onlyFailed);
    }

    @Override
    public void deleteConnector(String name) {
        fence.beforeWrite("delete " + name, WRITE_TIMEOUT);
        connect.deleteConnector(name);
    }

    @Override
    public ConnectApi fenced(WriteFence other) {
        return connect.fenced(other);
    }
}
