package io.kcscale.lab.experiment;

import java.util.List;
import java.util.Locale;

/**
 * When a source rate counts as sustained: over the hold window the sink group's lag stays bounded
 * and the source delivered what was asked. Pure.
 *
 * <p>The lag is read from committed offsets, which sink tasks commit once a second, so a pipeline that
 * keeps up still shows about a second of arrivals as lag; the cap allows two.
 *
 * @param maxSlopeShare    the most the lag may grow, as a share of the rate (0.05: 5% of arrivals left behind)
 * @param capSeconds       seconds of arrivals the lag may hold at the end of the hold
 * @param capFloor         records the cap allows on top, for low rates
 * @param minDeliveredShare the least share of the asked rate the source must have produced
 */
public record LagBound(double maxSlopeShare, double capSeconds, long capFloor, double minDeliveredShare) {

    public static final LagBound DEFAULT = new LagBound(0.05, 2.0, 100, 0.95);
    /** The end of the hold whose lag is compared with the cap: a mean over it smooths the commit sawtooth. */
    static final double TAIL_SECONDS = 2.0;

    /** The most lag the end of the hold may show at {@code rate} records/s. */
    public long cap(double rate) {
        return capFloor + Math.round(capSeconds * rate);
    }

    /**
     * @param delivered records/s the source appended over the hold
     * @param hold      the lag samples of the hold window only, oldest first (at least two)
     */
    public Verdict judge(double rate, double delivered, List<LagSample> hold) {
        if (hold.size() < 2) {
            throw new IllegalArgumentException("a hold needs at least two lag samples, got " + hold.size());
        }
        double slope = slope(hold);
        double end = hold.get(hold.size() - 1).seconds();
        double finalLag = hold.stream()
                .filter(s -> s.seconds() >= end - TAIL_SECONDS)
                .mapToLong(LagSample::lag)
                .average()
                .orElseThrow();
        String reason;
        if (delivered < minDeliveredShare * rate) {
            reason = String.format(
                    Locale.ROOT,
                    "the source delivered only %.0f of %.0f records/s: this machine, not the sink, set the limit",
                    delivered,
                    rate);
        } else if (slope > maxSlopeShare * rate) {
            reason = String.format(
                    Locale.ROOT, "lag grew %.1f records/s (%.1f%% of the rate)", slope, 100 * slope / rate);
        } else if (finalLag > cap(rate)) {
            reason = String.format(Locale.ROOT, "lag ended at %.0f records, above the cap of %d", finalLag, cap(rate));
        } else {
            reason = String.format(Locale.ROOT, "lag slope %.1f records/s, final lag %.0f records", slope, finalLag);
            return new Verdict(true, slope, finalLag, reason);
        }
        return new Verdict(false, slope, finalLag, reason);
    }

    /** The definition, as the report and the command print it. */
    public String describe() {
        return String.format(
                Locale.ROOT,
                "a rate R is sustained when, over the hold window, (1) the least-squares slope of the sink group's"
                        + " total lag (log-end minus committed offsets, sampled every %.2f s) is at most %.0f%% of R, (2) the mean lag over"
                        + " the hold's last %.0f s is at most %.0f s of arrivals + %d records (%.0f × R + %d), and (3) the source appended"
                        + " at least %.0f%% of R",
                Trial.SAMPLE_SECONDS,
                100 * maxSlopeShare,
                TAIL_SECONDS,
                capSeconds,
                capFloor,
                capSeconds,
                capFloor,
                100 * minDeliveredShare);
    }

    /** Least-squares slope of lag over time, in records per second. */
    static double slope(List<LagSample> samples) {
        double meanT =
                samples.stream().mapToDouble(LagSample::seconds).average().orElseThrow();
        double meanLag = samples.stream().mapToLong(LagSample::lag).average().orElseThrow();
        double covariance = 0;
        double variance = 0;
        for (LagSample s : samples) {
            covariance += (s.seconds() - meanT) * (s.lag() - meanLag);
            variance += (s.seconds() - meanT) * (s.seconds() - meanT);
        }
        return variance == 0 ? 0 : covariance / variance;
    }

    /**
     * @param slopePerSecond the lag's least-squares slope over the hold, records/s
     * @param finalLag       the mean lag over the hold's last seconds
     * @param reason         why, in words
     */
    public record Verdict(boolean bounded, double slopePerSecond, double finalLag, String reason) {}
}
