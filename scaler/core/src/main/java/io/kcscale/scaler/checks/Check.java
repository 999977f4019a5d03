package io.kcscale.scaler.checks;

import io.kcscale.scaler.model.PipelineSnapshot;

/**
 * One scaling trap, judged from what was observed: pure, no I/O. Every check returns a finding,
 * {@code ok} included, so a report always shows what was looked at.
 */
public interface Check {

    /** The id in findings; part of the API. */
    String id();

    Finding check(PipelineSnapshot snapshot, CheckSamples samples);
}
