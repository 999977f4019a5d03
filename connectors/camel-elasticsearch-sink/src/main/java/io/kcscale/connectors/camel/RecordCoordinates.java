package io.kcscale.connectors.camel;

import java.util.Map;

import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Where a record sits in Kafka: topic, partition and offset. Its {@link #documentId()} makes a replay
 * of the same record overwrite its document instead of adding a second one.
 */
public record RecordCoordinates(String topic, int partition, long offset) {

    /** Exchange headers, as Camel sees them once the sink task strips the {@code CamelHeader.} prefix. */
    public static final String TOPIC_HEADER = "kcscale.topic";
    public static final String PARTITION_HEADER = "kcscale.partition";
    public static final String OFFSET_HEADER = "kcscale.offset";

    /** The record's position as Kafka knows it, before any transform renamed its topic. */
    public static RecordCoordinates of(SinkRecord record) {
        return new RecordCoordinates(record.originalTopic(), record.originalKafkaPartition(), record.originalKafkaOffset());
    }

    /**
     * Reads the coordinates {@link CoordinatesHeaders} put on the record.
     *
     * @throws IllegalArgumentException naming the transform to configure when a header is missing
     */
    public static RecordCoordinates fromHeaders(Map<String, Object> headers) {
        Object topic = headers.get(TOPIC_HEADER);
        Object partition = headers.get(PARTITION_HEADER);
        Object offset = headers.get(OFFSET_HEADER);
        if (!(topic instanceof String) || !(partition instanceof Number) || !(offset instanceof Number)) {
            throw new IllegalArgumentException("the record carries no Kafka coordinates (headers " + TOPIC_HEADER + ", "
                    + PARTITION_HEADER + ", " + OFFSET_HEADER + "): add the transform "
                    + CoordinatesHeaders.class.getName() + " to the connector (transforms=coordinates, "
                    + "transforms.coordinates.type=" + CoordinatesHeaders.class.getName() + ")");
        }
        return new RecordCoordinates((String) topic, ((Number) partition).intValue(), ((Number) offset).longValue());
    }

    public TopicPartition topicPartition() {
        return new TopicPartition(topic, partition);
    }

    /** {@code topic-partition-offset}: unique per record, the same on every replay. */
    public String documentId() {
        return topic + "-" + partition + "-" + offset;
    }
}
