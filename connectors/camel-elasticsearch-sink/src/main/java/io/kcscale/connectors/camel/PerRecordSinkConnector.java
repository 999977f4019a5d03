package io.kcscale.connectors.camel;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.camel.kafkaconnector.CamelSinkConnector;
import org.apache.kafka.connect.connector.Task;

/**
 * The Camel sink connector in per-record mode (one index request per record), with
 * {@link PerRecordSinkTask}s: exactly one document per record, and malformed records dealt with as
 * {@value MalformedRecords#CONFIG} says. Configured like {@link CamelSinkConnector} with
 * {@code operation=Index} and {@code indexName} in the sink URL.
 */
public class PerRecordSinkConnector extends CheckedSinkConnector {

    public PerRecordSinkConnector() {
        super("per-record");
    }

    @Override
    public Class<? extends Task> taskClass() {
        return PerRecordSinkTask.class;
    }

    @Override
    Map<String, String> problems(Map<String, String> config) {
        Map<String, String> problems = new LinkedHashMap<>(SinkOperation.problems(
                config,
                "Index",
                "the task sets each document's id; for bulk requests use " + SafeCommitSinkConnector.class.getName()));
        SinkOperation.schemeProblems(config, "per-record mode sends its requests through it")
                .forEach((key, problem) -> problems.merge(key, problem, (first, second) -> first + "; " + second));
        SinkOperation.indexProblems(config)
                .forEach((key, problem) -> problems.merge(key, problem, (first, second) -> first + "; " + second));
        return problems;
    }
}
