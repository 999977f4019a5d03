package io.kcscale.scaler.checks;

import io.kcscale.scaler.model.PipelineSnapshot;
import java.util.Set;

/**
 * One scaling trap, judged from what was observed: pure, no I/O. Every check returns a finding,
 * {@code ok} included, so a report always shows what was looked at. It declares what it reads beyond the snapshot, and
 * the observer reads only that: a new check is this class and its place in {@link Checks#ALL}.
 */
public interface Check {

    /** The id in findings; part of the API. */
    String id();

    /** What it reads of {@link CheckSamples}; anything else may be null there. */
    Set<CheckInput> needs();

    Finding check(PipelineSnapshot snapshot, CheckSamples samples);
}
