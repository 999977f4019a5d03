package io.kcscale.connectors.camel;

import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Where a record sits in Kafka: topic, partition and offset. Its {@link #documentId()} makes a replay
 * of the same record overwrite its document instead of adding a second one.
 */
public record RecordCoordinates(String topic, int partition, long offset) {

    /**
     * The exchange header, as Camel sees it once the sink task strips the {@code CamelHeader.} prefix: the
     * {@link #documentId()}, from which the coordinates parse back. One header, not three: Camel copies
     * every header of every record into a case-insensitive tree map, which the profile of a bulk sink
     * task showed as one of its larger costs.
     */
    public static final String HEADER = "kcscale.coordinates";

    /** The record's position as Kafka knows it, before any transform renamed its topic. */
    public static RecordCoordinates of(SinkRecord record) {
        return new RecordCoordinates(
                record.originalTopic(), record.originalKafkaPartition(), record.originalKafkaOffset());
    }

    /**
     * Reads the coordinates {@link CoordinatesHeaders} put on the record.
     *
     * @throws IllegalArgumentException naming the transform to configure when the header is missing or malformed
     */
    public static RecordCoordinates fromHeaders(Map<String, Object> headers) {
        Object id = headers.get(HEADER);
        if (id instanceof String) {
            // topic names may hold '-'; partition and offset, the last two fields, cannot
            String text = (String) id;
            int offsetAt = text.lastIndexOf('-');
            int partitionAt = offsetAt > 0 ? text.lastIndexOf('-', offsetAt - 1) : -1;
            if (partitionAt > 0) {
                try {
                    return new RecordCoordinates(
                            text.substring(0, partitionAt),
                            Integer.parseInt(text.substring(partitionAt + 1, offsetAt)),
                            Long.parseLong(text.substring(offsetAt + 1)));
                } catch (NumberFormatException e) {
                    // said below
                }
            }
        }
        throw new IllegalArgumentException("the record carries no Kafka coordinates (header " + HEADER
                + " as topic-partition-offset, got " + id + "): add the transform " + CoordinatesHeaders.class.getName()
                + " to the connector (transforms=coordinates, transforms.coordinates.type="
                + CoordinatesHeaders.class.getName() + ")");
    }

    public TopicPartition topicPartition() {
        return new TopicPartition(topic, partition);
    }

    /** For people: {@code topic stocks, partition 0, offset 42}. */
    public String described() {
        return "topic " + topic + ", partition " + partition + ", offset " + offset;
    }

    /** {@code topic-partition-offset}: unique per record, the same on every replay. */
    public String documentId() {
        return topic + "-" + partition + "-" + offset;
    }
}
