package io.kcscale.connectors.camel;

import java.util.Map;

import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.ErrantRecordReporter;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTaskContext;

/**
 * The connector's dead-letter topic, if it has one. Connect hands a task a reporter whenever
 * errors.tolerance=all, even without a topic (it then only logs, or drops): a record "reported" there
 * would be committed and lost, so a record goes to the reporter only when the topic is named.
 */
final class DeadLetters {

    static final String TOPIC_CONFIG = "errors.deadletterqueue.topic.name";
    static final String HOW_TO_CONFIGURE = "set errors.tolerance=all and " + TOPIC_CONFIG;

    private final ErrantRecordReporter reporter;

    private DeadLetters(ErrantRecordReporter reporter) {
        this.reporter = reporter;
    }

    static DeadLetters of(Map<String, String> config, SinkTaskContext context) {
        ErrantRecordReporter reporter = context == null ? null : context.errantRecordReporter();
        return new DeadLetters(configured(config) ? reporter : null);
    }

    /** Whether {@code config} names a dead-letter topic. */
    static boolean configured(Map<String, String> config) {
        String topic = config.get(TOPIC_CONFIG);
        return topic != null && !topic.isBlank();
    }

    boolean available() {
        return reporter != null;
    }

    /** Connect writes it with {@code reason} in its headers, and awaits the write before its next commit. */
    void send(SinkRecord record, String reason) {
        reporter.report(record, new DataException(reason));
    }

    /**
     * A record Elasticsearch refused for good: to the dead-letter topic when there is one, else the
     * task fails with {@code reason}, so that nothing past the record is committed.
     */
    void sendOrFail(SinkRecord record, String reason) {
        if (!available()) {
            throw new ConnectException(reason + ". To send such records to a dead-letter topic instead of failing, " + HOW_TO_CONFIGURE);
        }
        send(record, reason);
    }
}
