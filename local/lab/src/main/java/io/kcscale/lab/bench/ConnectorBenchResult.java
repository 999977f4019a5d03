package io.kcscale.lab.bench;

import java.util.List;

/**
 * What {@code kcscale bench connectors} measured, one task of each kind, and under which settings.
 *
 * @param bulkFractionOfCeiling the bulk sink's rate over the raw bulk rate of the same node
 * @param bulkSize              documents per bulk request: the sink's {@code camel.aggregation.size}, and the raw load's
 * @param notes                 anything that makes a figure less than it seems (a backlog that ran out, say)
 */
public record ConnectorBenchResult(
        double datagenRecordsPerSecond,
        double perRecordSinkDocsPerSecond,
        double bulkSinkDocsPerSecond,
        double rawBulkDocsPerSecond,
        double bulkFractionOfCeiling,
        int bulkSize,
        long aggregationTimeoutMs,
        double warmupSeconds,
        double windowSeconds,
        List<String> notes) {
}
