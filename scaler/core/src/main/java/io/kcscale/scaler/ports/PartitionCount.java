package io.kcscale.scaler.ports;

/** A topic's partition count, from Kafka; throws when Kafka does not answer. */
@FunctionalInterface
public interface PartitionCount {

    int of(String topic);
}
