package io.kcscale.scaler.autoscale;

/**
 * A replica's term as leader: who, and the epoch of its claim. Every claim names an epoch above the one in force,
 * and the state topic's one order decides between claims, whatever became of the group that nominated the
 * claimants: a deposed leader's lease is always older than its successor's. The fencing token every decision
 * carries.
 */
public record Lease(String leaderId, long epoch) {}
