package io.kcscale.scaler.scale;

import java.util.List;

/**
 * The outcome of a scale: the body of {@code POST /api/v1/connectors/{name}/scale}.
 *
 * @param rebalancePauseSeconds the longest stretch without sink progress the change caused; null when it
 *                              could not be measured (then a warning says why) and for a dry run
 * @param autoscale             what a forced scale did to the connector's active autoscale policy; null when it had none
 */
public record ScaleResult(
        String connector,
        int before,
        int after,
        int tasksRunning,
        Double rebalancePauseSeconds,
        boolean dryRun,
        String plan,
        List<String> warnings,
        String autoscale) {

    public ScaleResult(
            String connector,
            int before,
            int after,
            int tasksRunning,
            Double rebalancePauseSeconds,
            boolean dryRun,
            String plan,
            List<String> warnings) {
        this(connector, before, after, tasksRunning, rebalancePauseSeconds, dryRun, plan, warnings, null);
    }

    /** The same outcome, saying what happened to the autoscale policy. */
    public ScaleResult withAutoscale(String note) {
        return new ScaleResult(
                connector, before, after, tasksRunning, rebalancePauseSeconds, dryRun, plan, warnings, note);
    }
}
