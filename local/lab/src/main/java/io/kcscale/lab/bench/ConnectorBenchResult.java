package io.kcscale.lab.bench;

import java.util.List;

/**
 * What {@code kcscale bench connectors} measured, one task of each kind, and under which settings.
 *
 * @param perRecordSinkCpu where the cores went while the per-record sink ran (its sender: the Connect worker)
 * @param bulk      the bulk sink against Elasticsearch's raw bulk rate, for each number of requests in flight measured
 * @param bulkSize  documents per bulk request: the sink's {@code camel.aggregation.size}, and the raw load's
 * @param notes     anything that makes a figure less than it seems (a backlog that ran out, say)
 */
public record ConnectorBenchResult(
        double datagenRecordsPerSecond,
        double perRecordSinkDocsPerSecond,
        TurnsCpu perRecordSinkCpu,
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
     * @param sinkTurnsCpu      where the cores went while the sink ran (its sender: the Connect worker)
     * @param rawTurnsCpu       where the cores went while the raw load ran (its sender: this benchmark)
     * @param requestTrace      where the sink's requests spent their time over its turns; null when the worker's
     *                          exporter could not be read
     */
    public record BulkAgainstCeiling(
            int inFlightRequests,
            double sinkDocsPerSecond,
            double rawDocsPerSecond,
            double fractionOfCeiling,
            TurnsCpu sinkTurnsCpu,
            TurnsCpu rawTurnsCpu,
            RequestTrace requestTrace) {

        public static BulkAgainstCeiling of(
                int inFlightRequests,
                double sinkDocsPerSecond,
                double rawDocsPerSecond,
                TurnsCpu sinkTurnsCpu,
                TurnsCpu rawTurnsCpu,
                RequestTrace requestTrace) {
            return new BulkAgainstCeiling(
                    inFlightRequests,
                    sinkDocsPerSecond,
                    rawDocsPerSecond,
                    sinkDocsPerSecond / rawDocsPerSecond,
                    sinkTurnsCpu,
                    rawTurnsCpu,
                    requestTrace);
        }
    }

    /**
     * Where the bulk sink's {@code _bulk} requests spent their time over its turns, from the task's trace (read
     * from the worker's exporter at the start and end of each turn): each request's batch ready (the aggregator
     * closed it), a place in flight obtained (slot), handed to the HTTP client (sent), answered.
     *
     * @param requests       requests answered during the turns
     * @param roomWaitShare  the share of the turns' time the task's thread waited for room in flight
     * @param slotWaitShare  the share of the turns' time the aggregator's thread waited for a request to end
     */
    public record RequestTrace(
            long requests,
            Wait readyToSlot,
            Wait slotToSent,
            Wait sentToAnswered,
            double roomWaitShare,
            double slotWaitShare) {}

    /**
     * One wait of the requests, in ms; each null without requests. The median and p99 are read off the
     * trace's buckets (about 1.4 apart, linear within one); the mean is exact.
     */
    public record Wait(Double medianMs, Double p99Ms, Double meanMs) {}

    /**
     * CPU time over one kind of turn (or over the per-record sink's window); each null when the system did not say.
     *
     * @param elasticsearchMsPerThousandDocs Elasticsearch's CPU time per 1,000 documents indexed, in ms
     * @param senderMsPerThousandDocs        the sending process's CPU time per 1,000 documents, in ms
     * @param stackCores                     the cores Elasticsearch, Kafka, the worker and this benchmark used together
     */
    public record TurnsCpu(Double elasticsearchMsPerThousandDocs, Double senderMsPerThousandDocs, Double stackCores) {}
}
