package io.kcscale.lab.bench;

import java.util.List;
import java.util.Map;

/**
 * What {@code kcscale bench scaler} measured: per point (connectors × partitions) the scaler's sampling round,
 * its CPU and heap, and the latency of {@code GET /api/v1/connectors}.
 *
 * @param sampleIntervalSeconds how often the scaler starts a round: a round must fit in it
 * @param loadPerSecond         records/s spread over every partition, so offsets move
 * @param windowSeconds         how long each point's round, CPU and heap figures are measured over
 * @param withinIntervalEveryPoint at least one point measured, and at each the p99 round shorter than the sample
 *                              interval
 * @param cpuMsPerRoundFit      the scaler's CPU per round fitted over the points, or null when they cannot
 *                              separate connectors from partitions (see {@link CostFit#of})
 * @param roundP50MsFit         the round's p50 fitted the same way, or null
 * @param heapMbFit             the live heap fitted the same way, or null
 * @param stoppedAt             the point the benchmark could not measure and why, or null when it measured all
 */
public record ScalerBenchResult(
        double sampleIntervalSeconds,
        double loadPerSecond,
        double windowSeconds,
        List<Point> points,
        boolean withinIntervalEveryPoint,
        CostFit cpuMsPerRoundFit,
        CostFit roundP50MsFit,
        CostFit heapMbFit,
        Stop stoppedAt,
        Map<String, Object> machine,
        double seconds) {

    /** A point the machine could not hold: its stack failed to set it up or to keep every sink running. */
    public record Stop(int connectors, int partitions, String reason) {}

    /**
     * @param topics              the topics the sinks read: every third sink reads two or three
     * @param rounds              sampling rounds that ended in the window
     * @param roundMeanMs         exact: the rounds' total time over their number
     * @param roundP50Ms          from the round histogram's buckets, interpolated within one (as histogram_quantile)
     * @param withinInterval      the p99 round is shorter than the sample interval
     * @param cpuPercentOfCore    the scaler process's CPU time over the window's wall time, in % of one core
     * @param cpuMsPerRound       the scaler process's CPU time in the window over its rounds: what a round costs
     *                            whatever the machine's load (the process's other work, scrapes included, counts too)
     * @param heapUsedAfterGcMb   the most heap in use right after a collection seen in the window, or null if none ran
     * @param heapLiveMb          the heap in use after a full collection asked for once the point was measured: the
     *                            live data; null without the JDK's {@code jcmd}
     * @param heapMaxMb           the scaler JVM's heap ceiling (-Xmx)
     * @param apiP99Ms            {@code GET /api/v1/connectors}, one request at a time, after the window
     * @param loadAverage         the machine's one-minute load average at the window's end
     */
    public record Point(
            int connectors,
            int partitions,
            int topics,
            long rounds,
            double roundMeanMs,
            double roundP50Ms,
            double roundP99Ms,
            boolean withinInterval,
            double cpuPercentOfCore,
            double cpuMsPerRound,
            Double heapUsedAfterGcMb,
            Double heapLiveMb,
            double heapMaxMb,
            int apiRequests,
            double apiP50Ms,
            double apiP99Ms,
            double loadAverage) {}
}
