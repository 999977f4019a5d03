package io.kcscale.scaler.act;

import java.util.LinkedHashMap;
import java.util.Map;

import io.kcscale.scaler.connect.ConnectApi;
import io.kcscale.scaler.connect.ConnectRestException;

/**
 * Writes tasks.max through Kafka Connect's REST API: a read-modify-write of the whole config, which
 * Connect validates and applies all of or none (its 409 during a rebalance is retried by the client).
 */
public final class ConnectTaskCountWriter implements TaskCountWriter {

    private final ConnectApi connect;

    public ConnectTaskCountWriter(ConnectApi connect) {
        this.connect = connect;
    }

    @Override
    public void setTaskCount(String connector, int tasks) {
        try {
            Map<String, String> config = new LinkedHashMap<>(connect.connectorConfig(connector));
            config.put("tasks.max", String.valueOf(tasks));
            connect.putConnectorConfig(connector, config);
        } catch (ConnectRestException e) {
            throw new ScaleException(ScaleException.Kind.UNAVAILABLE,
                    "Kafka Connect did not take the new config (the connector is unchanged): " + e.getMessage());
        }
    }

    @Override
    public String describe(String connector) {
        return "PUT /connectors/" + connector + "/config with the rest of its config unchanged";
    }
}
