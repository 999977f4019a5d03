package io.kcscale.lab.experiment;

/**
 * The sink group's total lag at one moment of a trial.
 *
 * @param seconds seconds since the trial's source rate was set
 * @param lag     records appended to the topic and not yet committed by the sink group
 */
public record LagSample(double seconds, long lag) {}
