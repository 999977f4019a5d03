package io.kcscale.lab.chaos;

import java.util.List;

/**
 * What the scaler's chaos run found: each disruption with how soon a replica autoscaled again, and the decision log
 * reconciled with the writes Connect took.
 *
 * @param policy                 the policy as last set
 * @param decisions              the decisions the log holds that scale, in order, with their outcomes
 * @param configWrites           writes of the sink's config the replicas sent Connect (through their gates)
 * @param connectConfigWrites    writes of the sink's config in Connect's config topic: more than {@code configWrites}
 *                               means a write went round the gates
 * @param writesBeforeLog        writes older than the oldest decision the log still kept (not reconciled)
 * @param decisionsWritten       decisions of the log that writes went for (each should have one)
 * @param appliedDecisions       of those, the decisions the log holds as applied
 * @param doubleWrites           decisions more than one write went for
 * @param unaccountedWrites      writes no applied decision of the log accounts for (a stale leader's, say)
 * @param nonLeaderWrites        writes sent by a replica whose lease was not the one in force when the write reached
 *                               Connect
 * @param takeovers              changes of leader the replicas' answers showed
 * @param secondsWithoutLeader   time in the window when no replica answered that it led
 * @param twoLeaderSamples       rounds of answers in which two replicas said they led
 * @param policyKept             every replica, and the state topic, still holds the policy as it was set
 */
public record ScalerChaosResult(
        long seed,
        double windowSeconds,
        int replicas,
        String policy,
        List<Outcome> disruptions,
        List<String> decisions,
        int configWrites,
        long connectConfigWrites,
        int writesBeforeLog,
        int decisionsWritten,
        int appliedDecisions,
        int doubleWrites,
        List<String> unaccountedWrites,
        List<String> nonLeaderWrites,
        int takeovers,
        double secondsWithoutLeader,
        long twoLeaderSamples,
        boolean policyKept,
        double seconds) {

    /** The longest a replica may take to autoscale again after a disruption. */
    public static final double LEADER_LIMIT_SECONDS = 30;

    /**
     * One disruption as it went.
     *
     * @param wasLeader       whether the replica it hit led then
     * @param secondsToLeader from the disruption's start to a replica (another one, when it hit the leader) autoscaling
     *                        again; null when none did within the wait
     */
    public record Outcome(
            double atSeconds,
            ScalerDisruption disruption,
            String replica,
            boolean wasLeader,
            double holdSeconds,
            Double secondsToLeader) {}

    public ScalerChaosResult {
        disruptions = List.copyOf(disruptions);
        decisions = List.copyOf(decisions);
        unaccountedWrites = List.copyOf(unaccountedWrites);
        nonLeaderWrites = List.copyOf(nonLeaderWrites);
    }

    /** The longest wait for a leader after any disruption; null when one never came. */
    public Double maxSecondsToLeader() {
        double max = 0;
        for (Outcome o : disruptions) {
            if (o.secondsToLeader() == null) {
                return null;
            }
            max = Math.max(max, o.secondsToLeader());
        }
        return max;
    }

    public boolean passed() {
        Double max = maxSecondsToLeader();
        return max != null
                && max <= LEADER_LIMIT_SECONDS
                && doubleWrites == 0
                && unaccountedWrites.isEmpty()
                && nonLeaderWrites.isEmpty()
                && connectConfigWrites == configWrites
                && twoLeaderSamples == 0
                && policyKept;
    }
}
