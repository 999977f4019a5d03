package io.kcscale.scaler.checks;

import java.util.List;

/**
 * Every check's finding for one sink connector: the body of {@code GET /api/v1/connectors/{name}/checks}.
 *
 * @param tasks    the task count the checks judged (tasks.max, or what a scale asked for)
 * @param severity the worst severity among the findings
 */
public record CheckReport(String connector, int tasks, Severity severity, List<Finding> findings) {

    public static CheckReport of(String connector, int tasks, List<Finding> findings) {
        Severity worst = findings.stream().map(Finding::severity).reduce(Severity.OK, Severity::worst);
        return new CheckReport(connector, tasks, worst, List.copyOf(findings));
    }
}
