package io.kcscale.lab.experiment;

import java.util.List;
import java.util.Optional;

/**
 * One hold at a fixed source rate.
 *
 * @param rate               records/s asked of the source
 * @param delivered          records/s the source appended over the hold
 * @param throughput         what the sink group committed over the hold
 * @param lag                every lag sample of the trial, settling included
 * @param holdStartSeconds   when the hold began, on the samples' time axis
 * @param littleSeconds      Little's law: the hold's mean lag divided by its throughput
 * @param latency            measured end-to-end latency; only for sustained trials
 */
public record TrialResult(
        double rate,
        double delivered,
        Throughput throughput,
        LagBound.Verdict verdict,
        List<LagSample> lag,
        double holdStartSeconds,
        double littleSeconds,
        Optional<Latency> latency) {

    public boolean sustained() {
        return verdict.bounded();
    }
}
