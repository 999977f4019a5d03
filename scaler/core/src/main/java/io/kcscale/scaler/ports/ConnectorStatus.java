package io.kcscale.scaler.ports;

import java.util.List;

/** What {@code GET /connectors/{name}/status} says: the connector's and each task's state and worker. */
public record ConnectorStatus(String name, String type, String state, String workerId, List<TaskStatus> tasks) {

    public record TaskStatus(int id, String state, String workerId, String trace) {}

    public long tasksInState(String wanted) {
        return tasks.stream().filter(t -> t.state().equals(wanted)).count();
    }

    public boolean isSink() {
        return "sink".equals(type);
    }
}
