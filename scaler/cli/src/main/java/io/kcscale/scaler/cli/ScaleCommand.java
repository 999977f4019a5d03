package io.kcscale.scaler.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code kcscale scale NAME --tasks N}: sets a sink connector's tasks through the scaler, safely. */
@Command(
        name = "scale",
        mixinStandardHelpOptions = true,
        description = {
            "Set a sink connector's tasks.max through the scaler: it checks the rules first, retries",
            "Connect's 409 during rebalances, waits until N tasks RUNNING and measures the pause it caused.",
            "The scaling checks run first: their warnings are printed, and a critical finding refuses a",
            "scale-up unless --force. Under an active autoscale policy it is refused (409) unless --force,",
            "which pauses the policy. Exits 1 with the reason when the scaler refuses."
        })
public final class ScaleCommand implements Callable<Integer> {

    @Mixin
    ConnectorVerbOptions connector = new ConnectorVerbOptions();

    @Option(names = "--tasks", required = true, paramLabel = "N", description = "Tasks to run (a whole number).")
    String tasks;

    @Option(names = "--dry-run", description = "Show the plan; change nothing.")
    boolean dryRun;

    @Option(names = "--allow-idle-tasks", description = "Allow more tasks than partitions (the extra ones sit idle).")
    boolean allowIdleTasks;

    @Option(
            names = "--force",
            description = "Scale up even when a check finds that adding tasks would not help;"
                    + " pause the connector's active autoscale policy, which would undo the scale.")
    boolean force;

    @Override
    public Integer call() {
        int n;
        try {
            n = Integer.parseInt(tasks.trim());
        } catch (NumberFormatException e) {
            return connector.invalid("--tasks must be a whole number, got " + tasks);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("tasks", n);
        body.put("dryRun", dryRun);
        body.put("allowIdleTasks", allowIdleTasks);
        body.put("force", force);
        try {
            connector.print(
                    connector.client().post(connector.path("/scale"), body, Duration.ofMinutes(5)),
                    ScaleCommand::summary);
            return 0;
        } catch (ScalerApiClient.Failure e) {
            return connector.failed(e);
        }
    }

    static String summary(JsonNode r) {
        StringBuilder b = new StringBuilder();
        if (r.path("dryRun").asBoolean()) {
            b.append("dry run: would ").append(r.path("plan").asText()).append(System.lineSeparator());
        } else {
            b.append(String.format(
                    Locale.ROOT,
                    "%s: tasks.max %d -> %d, %d tasks RUNNING, rebalance pause %s%n",
                    r.path("connector").asText(),
                    r.path("before").asInt(),
                    r.path("after").asInt(),
                    r.path("tasksRunning").asInt(),
                    r.path("rebalancePauseSeconds").isNumber()
                            ? String.format(
                                    Locale.ROOT,
                                    "%.2f s",
                                    r.path("rebalancePauseSeconds").asDouble())
                            : "not measured"));
        }
        if (r.hasNonNull("autoscale")) {
            b.append("autoscale: ").append(r.path("autoscale").asText()).append(System.lineSeparator());
        }
        r.path("warnings").forEach(w -> b.append("warning: ").append(w.asText()).append(System.lineSeparator()));
        return b.toString();
    }
}
