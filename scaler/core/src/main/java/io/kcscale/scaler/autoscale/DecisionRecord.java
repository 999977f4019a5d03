package io.kcscale.scaler.autoscale;

/**
 * A decision as the autoscaler reports it, with what became of it.
 *
 * @param outcome {@code applied: ...}, {@code dry run}, {@code failed: ...}, or {@code none} for a decision that does not scale
 */
public record DecisionRecord(Decision decision, String outcome) {}
