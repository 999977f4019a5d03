package io.kcscale.scaler.autoscale;

/**
 * A replica's term as leader: who, and the generation of the group in which it was given leadership.
 * Generations only grow, so a deposed leader's lease is always older than its successor's: the
 * fencing token every decision carries.
 */
public record Lease(String leaderId, int generation) {}
