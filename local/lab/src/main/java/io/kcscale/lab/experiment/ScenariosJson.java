package io.kcscale.lab.experiment;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * The {@code --json} output, exactly {@code {"scenarios": [{"name", "points": [{"tasks", "throughput",
 * "perTaskThroughput"[, "workerCapacity": the finding as the API gives it]}], "findings": [check ids]}]}}: rates
 * rounded to 0.1 records/s; {@code workerCapacity} where the experiment read it (the sweep, for one task more).
 */
public final class ScenariosJson {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ScenariosJson() {}

    public static String write(List<ScenarioResult> scenarios) {
        ObjectNode root = JSON.createObjectNode();
        ArrayNode list = root.putArray("scenarios");
        for (ScenarioResult s : scenarios) {
            ObjectNode scenario = list.addObject();
            scenario.put("name", s.name());
            ArrayNode points = scenario.putArray("points");
            for (ScenarioResult.Point p : s.points()) {
                ObjectNode point = points.addObject();
                point.put("tasks", p.tasks());
                point.put("throughput", round(p.throughput()));
                ArrayNode perTask = point.putArray("perTaskThroughput");
                p.perTaskThroughput().forEach(t -> perTask.add(round(t)));
                if (p.workerCapacity() != null) {
                    point.set(
                            "workerCapacity",
                            JSON.valueToTree(p.workerCapacity().finding()));
                }
            }
            ArrayNode findings = scenario.putArray("findings");
            s.findingIds().forEach(findings::add);
        }
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static double round(double rate) {
        return Math.round(rate * 10) / 10.0;
    }
}
