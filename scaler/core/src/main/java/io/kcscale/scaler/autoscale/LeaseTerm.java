package io.kcscale.scaler.autoscale;

/**
 * The lease in force as the shared state holds it.
 *
 * @param durationMillis how long the lease holds after its holder sent each claim or renewal of it, as the holder
 *                       stated: a replica that reads no renewal for that long may take it as lapsed
 * @param released       whether its holder gave it up (a replica that stopped cleanly): another may claim at once
 * @param records        how many claims, renewals and releases have counted so far: a reader that sees the number
 *                       move knows a holder wrote again
 */
public record LeaseTerm(Lease lease, long durationMillis, boolean released, long records) {}
