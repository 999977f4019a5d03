package io.kcscale.lab.bench;

import java.util.List;
import java.util.Optional;

/**
 * A cost fitted by least squares as {@code base + perConnector × connectors + perPartition × partitions} over
 * measured points, so a user can read their own fleet's cost off it; in the unit of what was measured (the name
 * of the fit says it: {@code cpuMsPerRoundFit}, {@code heapMbFit}).
 *
 * @param rSquared the share of the measured costs' variance the fit explains (1: every point on the plane)
 * @param points   the points it was fitted over
 */
public record CostFit(double base, double perConnector, double perPartition, double rSquared, int points) {

    /** One measured point: {@code cost} at {@code connectors} sinks over {@code partitions} partitions in all. */
    public record Sample(int connectors, int partitions, double cost) {}

    /** Three coefficients need a fourth point before the fit says anything about how well they hold. */
    static final int MIN_POINTS = 4;

    /**
     * The least-squares fit over the finite samples; empty when they cannot separate the two costs: fewer than
     * {@link #MIN_POINTS}, or connectors and partitions moving in lockstep (the same partitions per connector at
     * every point).
     */
    public static Optional<CostFit> of(List<Sample> samples) {
        List<Sample> finite =
                samples.stream().filter(s -> Double.isFinite(s.cost())).toList();
        int n = finite.size();
        if (n < MIN_POINTS) {
            return Optional.empty();
        }
        double meanC = finite.stream().mapToDouble(Sample::connectors).average().orElseThrow();
        double meanP = finite.stream().mapToDouble(Sample::partitions).average().orElseThrow();
        double meanY = finite.stream().mapToDouble(Sample::cost).average().orElseThrow();
        double scc = 0, spp = 0, scp = 0, scy = 0, spy = 0, syy = 0;
        for (Sample s : finite) {
            double c = s.connectors() - meanC;
            double p = s.partitions() - meanP;
            double y = s.cost() - meanY;
            scc += c * c;
            spp += p * p;
            scp += c * p;
            scy += c * y;
            spy += p * y;
            syy += y * y;
        }
        double det = scc * spp - scp * scp;
        // centred, the two columns are collinear when |correlation| is 1; a relative bound absorbs rounding
        if (scc == 0 || spp == 0 || det <= 1e-9 * scc * spp) {
            return Optional.empty();
        }
        double perConnector = (spp * scy - scp * spy) / det;
        double perPartition = (scc * spy - scp * scy) / det;
        double base = meanY - perConnector * meanC - perPartition * meanP;
        double residual = 0;
        for (Sample s : finite) {
            double e = s.cost() - (base + perConnector * s.connectors() + perPartition * s.partitions());
            residual += e * e;
        }
        double rSquared = syy == 0 ? (residual == 0 ? 1 : 0) : 1 - residual / syy;
        return Optional.of(new CostFit(base, perConnector, perPartition, rSquared, n));
    }

    /** The fitted cost of a fleet of {@code connectors} sinks over {@code partitions} partitions. */
    public double at(int connectors, int partitions) {
        return base + perConnector * connectors + perPartition * partitions;
    }
}
