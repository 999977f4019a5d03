package io.kcscale.scaler.kafka;

import io.kcscale.scaler.ports.KafkaReadings;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsResult;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

/**
 * The answers to the requests {@link KafkaReadingsClient#read} sent together, read per topic and per group:
 * each read waits for its own answer until the reading's one deadline and throws
 * {@link KafkaUnavailableException} for its own failure only.
 */
public final class KafkaBatchReading implements KafkaReadings.Batch {

    private final KafkaReadingsClient observer;
    private final long deadline;
    private final Map<String, Integer> partitions;
    private final Map<String, KafkaUnavailableException> topicErrors;
    private final ListOffsetsResult ends;
    private final ListConsumerGroupOffsetsResult committed;
    private final Map<String, KafkaFuture<ConsumerGroupDescription>> described;

    KafkaBatchReading(
            KafkaReadingsClient observer,
            long deadline,
            Map<String, Integer> partitions,
            Map<String, KafkaUnavailableException> topicErrors,
            ListOffsetsResult ends,
            ListConsumerGroupOffsetsResult committed,
            Map<String, KafkaFuture<ConsumerGroupDescription>> described) {
        this.observer = observer;
        this.deadline = deadline;
        this.partitions = partitions;
        this.topicErrors = topicErrors;
        this.ends = ends;
        this.committed = committed;
        this.described = described;
    }

    /** Log-end offset of every partition of {@code topic}, by partition number. */
    @Override
    public Map<Integer, Long> endOffsets(String topic) {
        KafkaUnavailableException failed = topicErrors.get(topic);
        if (failed != null) {
            throw failed;
        }
        Integer count = partitions.get(topic);
        if (count == null) {
            throw new IllegalArgumentException("topic " + topic + " was not part of this reading");
        }
        Map<Integer, Long> offsets = new HashMap<>();
        for (int p = 0; p < count; p++) {
            offsets.put(
                    p,
                    observer.get(ends.partitionResult(new TopicPartition(topic, p)), deadline)
                            .offset());
        }
        return offsets;
    }

    /** The group's committed offset per partition of {@code topic}; partitions with none are absent. */
    @Override
    public Map<Integer, Long> committedOffsets(String group, String topic) {
        return KafkaReadingsClient.committedOn(topic, observer.get(committedFuture(group), deadline));
    }

    /** The group's state and, per partition of {@code topic}, the client id of the member consuming it. */
    @Override
    public KafkaReadings.GroupView describeGroup(String group, String topic) {
        KafkaFuture<ConsumerGroupDescription> future = described.get(group);
        if (future == null) {
            throw new IllegalArgumentException("group " + group + " was not part of this reading");
        }
        return KafkaReadingsClient.groupView(observer.get(future, deadline), topic);
    }

    private KafkaFuture<Map<TopicPartition, OffsetAndMetadata>> committedFuture(String group) {
        if (committed == null) {
            throw new IllegalArgumentException("group " + group + " was not part of this reading");
        }
        return committed.partitionsToOffsetAndMetadata(group);
    }
}
