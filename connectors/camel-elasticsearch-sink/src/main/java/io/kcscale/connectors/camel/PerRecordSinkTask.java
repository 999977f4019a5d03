package io.kcscale.connectors.camel;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.apache.camel.component.elasticsearch.ElasticsearchConstants;
import org.apache.camel.kafkaconnector.CamelSinkTask;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * The Camel sink task, one index request per record, with two changes. Each document's id is its
 * record's {@code topic-partition-offset} (Camel's {@code indexId} header), so a record delivered again
 * after a crash or a rebalance overwrites its document instead of adding one. Records whose value is
 * no JSON document never reach Camel ({@link MalformedRecords}).
 */
public class PerRecordSinkTask extends CamelSinkTask {

    private MalformedRecords malformed;

    @Override
    public void start(Map<String, String> props) {
        malformed = MalformedRecords.of(props, DeadLetters.of(props, context));
        super.start(props);
    }

    @Override
    public void put(Collection<SinkRecord> records) {
        List<SinkRecord> documents = malformed.screen(records).stream()
                .map(record -> CoordinatesHeaders.withDocumentId(record, ElasticsearchConstants.PARAM_INDEX_ID))
                .collect(Collectors.toList());
        super.put(documents);
    }
}
