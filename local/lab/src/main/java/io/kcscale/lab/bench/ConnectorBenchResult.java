package io.kcscale.lab.bench;

import java.util.List;

/**
 * What {@code kcscale bench connectors} measured, one task of each kind, and under which settings.
 *
 * @param bulk      the bulk sink against Elasticsearch's raw bulk rate, for each number of requests in flight measured
 * @param bulkSize  documents per bulk request: the sink's {@code camel.aggregation.size}, and the raw load's
 * @param notes     anything that makes a figure less than it seems (a backlog that ran out, say)
 */
public record ConnectorBenchResult(
        double datagenRecordsPerSecond,
        double perRecordSinkDocsPerSecond,
        List<BulkAgainstCeiling> bulk,
        int bulkSize,
        long aggregationTimeoutMs,
        double warmupSeconds,
        double windowSeconds,
        List<String> notes) {

    /**
     * One bulk sink task and the raw load, each with {@code inFlightRequests} bulk requests in flight.
     *
     * @param fractionOfCeiling the bulk sink's rate over the raw bulk rate
     */
    public record BulkAgainstCeiling(int inFlightRequests, double sinkDocsPerSecond, double rawDocsPerSecond, double fractionOfCeiling) {

        public static BulkAgainstCeiling of(int inFlightRequests, double sinkDocsPerSecond, double rawDocsPerSecond) {
            return new BulkAgainstCeiling(inFlightRequests, sinkDocsPerSecond, rawDocsPerSecond, sinkDocsPerSecond / rawDocsPerSecond);
        }
    }
}
