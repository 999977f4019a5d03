package io.kcscale.scaler.ports;

import io.kcscale.scaler.act.WriteFence;
import java.util.List;
import java.util.Map;

/**
 * The Kafka Connect operations this project uses, reads and writes. {@code ConnectRestClient} is the
 * real one; errors are {@code ConnectRestException} and its cases.
 */
public interface ConnectApi {

    List<String> connectors();

    Map<String, String> connectorConfig(String name);

    ConnectorStatus connectorStatus(String name);

    /** Every connector with its config and status, in one request ({@code ?expand=info&expand=status}). */
    Map<String, ConnectorView> connectorsExpanded();

    /** A connector's configuration and status as one listing reports them. */
    record ConnectorView(String name, Map<String, String> config, ConnectorStatus status) {}

    /** Creates the connector or replaces its whole configuration. */
    void putConnectorConfig(String name, Map<String, String> config);

    /**
     * Changes only the given keys of an existing connector's configuration ({@code PATCH}, KIP-477):
     * a missing connector is a {@code ConnectRestException.ConnectorNotFound}, never created. A Connect
     * older than KIP-477 answers 404 or 405 for an existing connector too.
     */
    void patchConnectorConfig(String name, Map<String, String> changes);

    /** Pauses the connector and its tasks; a paused sink keeps its group membership and committed offsets. */
    void pauseConnector(String name);

    void resumeConnector(String name);

    /** Restarts the connector and, as asked, its tasks (only the failed ones, with {@code onlyFailed}). */
    void restartConnector(String name, boolean includeTasks, boolean onlyFailed);

    void deleteConnector(String name);

    /** This API with {@code fence} asked right before each write it sends (each attempt of one). */
    ConnectApi fenced(WriteFence fence);
}
