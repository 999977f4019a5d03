package io.kcscale.lab.chaos;

/**
 * One fault as it happened.
 *
 * @param dueSeconds      when the schedule said, from the start of the fault window
 * @param atSeconds       when it started: later than due when the previous fault's recovery ran past it
 * @param what            what was done, in a few words
 * @param recoverySeconds from its start until the sink committed offsets and indexed documents again, both
 *                        past where they were once the fault was done; null when they did not within the timeout
 */
public record FaultOutcome(
        double dueSeconds, double atSeconds, Fault fault, String target, String what, Double recoverySeconds) {}
