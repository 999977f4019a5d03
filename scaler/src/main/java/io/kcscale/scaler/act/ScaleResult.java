package io.kcscale.scaler.act;

import java.util.List;

/**
 * The outcome of a scale: the body of {@code POST /api/v1/connectors/{name}/scale}.
 *
 * @param rebalancePauseSeconds the longest stretch without sink progress the change caused; null when it
 *                              could not be measured (then a warning says why) and for a dry run
 */
public record ScaleResult(String connector, int before, int after, int tasksRunning, Double rebalancePauseSeconds,
                          boolean dryRun, String plan, List<String> warnings) {
}
