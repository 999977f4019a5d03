package io.kcscale.connectors.camel;

import org.apache.camel.kafkaconnector.CamelSinkTask;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * The copy of a record the sink hands to the Camel task: its document's bytes and one header, the
 * document id, and nothing else. The Camel task copies every record header named {@code CamelHeader.X}
 * onto the exchange as {@code X} (and {@code CamelProperty.X} into its properties), and Camel's
 * Elasticsearch producer and aggregator obey such headers over their configuration
 * ({@code operation=DeleteIndex}, {@code indexName=*}, {@code CamelAggregationCompleteAllGroups}): a
 * producer to the topic must not steer the sink, so none of the record's own headers goes along.
 */
final class RecordForCamel {

    private RecordForCamel() {}

    /**
     * {@code document}'s record with {@code document}'s bytes as its value and only its
     * {@code topic-partition-offset} as exchange header {@code idHeader}; its coordinates stay the record's.
     */
    static SinkRecord of(Document document, String idHeader) {
        SinkRecord record = document.record();
        ConnectHeaders headers = new ConnectHeaders();
        headers.addString(
                CamelSinkTask.HEADER_CAMEL_PREFIX + idHeader, document.at().documentId());
        return record.newRecord(
                record.topic(),
                record.kafkaPartition(),
                record.keySchema(),
                record.key(),
                null,
                document.bytes(),
                record.timestamp(),
                headers);
    }
}
