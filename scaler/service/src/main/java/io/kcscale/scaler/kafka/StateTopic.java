package io.kcscale.scaler.kafka;

/**
 * The state topic as the scaler found it when it opened it: how safely Kafka keeps the autoscaler's state.
 *
 * @param minInsyncReplicas the replicas that must have a write before Kafka acknowledges it (the scaler writes with
 *                          {@code acks=all})
 */
public record StateTopic(String name, int partitions, int replicationFactor, int minInsyncReplicas) {

    /** Whether one broker's loss can lose an acknowledged write, or stop writes: Kafka's advice is 3 and 2. */
    public boolean fragile() {
        return replicationFactor < 3 || minInsyncReplicas < 2 || minInsyncReplicas >= replicationFactor;
    }
}
