package io.kcscale.scaler.autoscale;

import java.util.Optional;

/**
 * Whether a user's scale of a connector may go ahead beside its autoscale policy. No policy, or one that only
 * decides (a dry run), lets it through. An active policy would undo it within an interval, so it is refused,
 * naming the policy, unless forced; forced, the policy is to be paused.
 */
public final class ManualScaleRule {

    private static final String RESOURCE = "/api/v1/connectors/{name}/autoscale";

    private ManualScaleRule() {}

    /**
     * @param refusal why the scale may not go ahead, if it may not
     * @param note    for a forced scale under an active policy, what it does to the policy, in words for the answer
     */
    public record Verdict(Optional<String> refusal, Optional<String> note) {

        static final Verdict THROUGH = new Verdict(Optional.empty(), Optional.empty());
    }

    /** @param policy the connector's policy, if it has one */
    public static Verdict judge(String connector, Optional<AutoscalePolicy> policy, boolean force, boolean dryRun) {
        if (policy.isEmpty() || Boolean.TRUE.equals(policy.get().dryRun())) {
            return Verdict.THROUGH;
        }
        if (!force) {
            return new Verdict(
                    Optional.of(connector + " is under an active autoscale policy ("
                            + policy.get().describe()
                            + ") that would undo a manual scale: stop it (DELETE " + RESOURCE
                            + ", or kcscale autoscale " + connector
                            + " --stop), or pass force to pause it and scale"),
                    Optional.empty());
        }
        return new Verdict(
                Optional.empty(),
                Optional.of((dryRun ? "would pause" : "paused") + " the autoscale policy of "
                        + connector + " (" + policy.get().describe()
                        + "): it keeps deciding as a dry run and changes nothing; PUT "
                        + RESOURCE + " with dryRun false to resume it"));
    }
}
