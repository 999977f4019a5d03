package io.kcscale.scaler.ports;

import io.kcscale.scaler.model.TopicPartition;
import java.util.Map;

/** Port: the timestamps of the records at given offsets, read from Kafka on demand. */
public interface RecordTimestamps {

    /**
     * The timestamp of the first record at or after each offset; a partition whose record did not arrive within the
     * reader's time limit, or that has none there, is left out.
     */
    Map<TopicPartition, Long> at(Map<TopicPartition, Long> offsets);
}
