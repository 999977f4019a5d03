package io.kcscale.scaler.autoscale;

import java.util.List;

/**
 * A connector's policy as every replica sees it.
 *
 * @param policy    the settings in force: a paused policy's read as a dry run
 * @param version   where the policy was set (its record's offset): a write derived from it names this version
 * @param decisions the leader's decisions under this version, newest first
 */
public record StoredPolicy(String connector, AutoscalePolicy policy, long version, List<DecisionRecord> decisions) {}
