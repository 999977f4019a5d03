package io.kcscale.scaler.connect;

import io.kcscale.scaler.act.WriteFence;
import io.kcscale.scaler.ports.ConnectApi;
import io.kcscale.scaler.ports.ScalerException;
import io.kcscale.scaler.ports.TasksMaxWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Writes {@code tasks.max} through Connect's REST API. First a {@code PATCH} of that one key (KIP-477):
 * edits of other keys made meanwhile survive, and a deleted connector answers 404 instead of being
 * re-created. A Connect without PATCH answers 404 or 405 for a connector that exists; then the config
 * is read again just before a {@code PUT} of the whole of it, which goes ahead only if nothing changed
 * since the scale read it (Connect has no conditional PUT, so a delete in the few milliseconds between
 * that read and the PUT is the one case this cannot exclude).
 */
public final class ConnectTasksMaxWriter implements TasksMaxWriter {

    private static final String TASKS_MAX = "tasks.max";

    private final ConnectApi connect;

    public ConnectTasksMaxWriter(ConnectApi connect) {
        this.connect = connect;
    }

    @Override
    public String describe(String connector) {
        return "that key only, refused if the connector was deleted or its tasks.max changed meanwhile";
    }

    @Override
    public void write(String connector, Map<String, String> seen, int tasks, WriteFence fence) {
        String value = String.valueOf(tasks);
        Map<String, String> now = current(connector);
        if (!Objects.equals(now.get(TASKS_MAX), seen.get(TASKS_MAX))) {
            throw new ScalerException(
                    ScalerException.Problem.CONFLICT,
                    "tasks.max of " + connector + " changed from "
                            + seen.get(TASKS_MAX) + " to " + now.get(TASKS_MAX)
                            + " while the scale ran its checks (another scaler"
                            + " or a user): nothing written; scale again from " + now.get(TASKS_MAX)
                            + " if still needed");
        }
        try {
            connect.fenced(fence).patchConnectorConfig(connector, Map.of(TASKS_MAX, value));
        } catch (ConnectRestException e) {
            if (e.status() == 404 || e.status() == 405) {
                putUnlessChanged(connector, seen, value, fence);
            } else {
                failed(connector, seen, value, e);
            }
        }
    }

    /** The fallback for a Connect without PATCH: a PUT of the config as read just now, if it is still as seen. */
    private void putUnlessChanged(String connector, Map<String, String> seen, String value, WriteFence fence) {
        Map<String, String> now = current(connector);
        if (!now.equals(seen)) {
            throw new ScalerException(
                    ScalerException.Problem.CONFLICT,
                    "the config of " + connector + " changed while the scale"
                            + " ran its checks (keys " + changedKeys(seen, now)
                            + "); this Kafka Connect has no PATCH, and a PUT"
                            + " of the whole config would undo that change: nothing written; retry the scale");
        }
        Map<String, String> changed = new LinkedHashMap<>(now);
        changed.put(TASKS_MAX, value);
        try {
            connect.fenced(fence).putConnectorConfig(connector, changed);
        } catch (ConnectRestException e) {
            failed(connector, seen, value, e);
        }
    }

    /** A write that failed: refused outright (4xx), or perhaps still applying (no answer, or a 5xx such as Connect's own timeout). */
    private void failed(String connector, Map<String, String> seen, String value, ConnectRestException e) {
        if (e.status() >= 400 && e.status() < 500) {
            throw new ScalerException(
                    ScalerException.Problem.UNAVAILABLE,
                    "Kafka Connect refused tasks.max " + value + " (tasks.max stays " + seen.get(TASKS_MAX) + "): "
                            + e.getMessage());
        }
        String held;
        try {
            held = connect.connectorConfig(connector).get(TASKS_MAX);
        } catch (ConnectRestException.ConnectorNotFound gone) {
            throw gone(connector);
        } catch (ConnectRestException unreadable) {
            throw new ScalerException(
                    ScalerException.Problem.UNCONFIRMED,
                    "the write of tasks.max " + value + " got no answer ("
                            + e.getMessage() + ") and Kafka Connect could not be read back (" + unreadable.getMessage()
                            + "): it may still apply; read tasks.max before retrying");
        }
        if (!value.equals(held)) {
            throw new ScalerException(
                    ScalerException.Problem.UNCONFIRMED,
                    "the write of tasks.max " + value + " got no answer ("
                            + e.getMessage() + "); Kafka Connect holds tasks.max " + held
                            + " now and may still apply the write:"
                            + " read tasks.max before retrying");
        }
        // read back as written: the write took effect although its answer was lost
    }

    private Map<String, String> current(String connector) {
        try {
            return connect.connectorConfig(connector);
        } catch (ConnectRestException.ConnectorNotFound e) {
            throw gone(connector);
        } catch (ConnectRestException e) {
            throw new ScalerException(
                    ScalerException.Problem.UNAVAILABLE,
                    "cannot read " + connector + " back before writing (nothing written): " + e.getMessage());
        }
    }

    public static ScalerException gone(String connector) {
        return new ScalerException(
                ScalerException.Problem.GONE, connector + " was deleted while the scale ran; it was not re-created");
    }

    private static TreeSet<String> changedKeys(Map<String, String> a, Map<String, String> b) {
        TreeSet<String> keys = new TreeSet<>(a.keySet());
        keys.addAll(b.keySet());
        keys.removeIf(k -> Objects.equals(a.get(k), b.get(k)));
        return keys;
    }
}
