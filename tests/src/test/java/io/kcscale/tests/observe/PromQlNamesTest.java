package io.kcscale.tests.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** The metric-name extraction the "every name is produced" check rests on. */
class PromQlNamesTest {

    @Test
    void keepsMetricNamesAndRecordingRuleNames() {
        assertEquals(
                Set.of("connector:sink_lag_records:sum", "connector:sink_records:rate1m"),
                PromQlNames.of("connector:sink_lag_records:sum / on (connector) connector:sink_records:rate1m"));
    }

    @Test
    void dropsFunctionsAggregationsKeywordsAndGroupingLabels() {
        assertEquals(
                Set.of("kafka_connect_sink_task_sink_record_send_total"),
                PromQlNames.of(
                        "sum by (connector, task) (rate(kafka_connect_sink_task_sink_record_send_total[1m])) > bool 0"));
        assertEquals(Set.of("a", "b"), PromQlNames.of("sum(a) without (instance) * on (x) group_left (y, z) b"));
    }

    @Test
    void dropsLabelMatchersStringsDurationsAndGrafanaVariables() {
        assertEquals(
                Set.of("kcscale_scale_actions_total"),
                PromQlNames.of(
                        "changes(kcscale_scale_actions_total{connector=\"$connector\",outcome=\"applied\"}[$__rate_interval]) > 0"
                                + " unless kcscale_scale_actions_total offset 15m"));
        assertEquals(
                Set.of("up"), PromQlNames.of("label_replace(up, \"dst\", \"$1\", \"instance\", \"(.*):.*\") == 0"));
        assertEquals(Set.of("m"), PromQlNames.of("max_over_time(m[5m:30s]) > 1e3 and m < Inf"));
    }

    @Test
    void readsTheMetricOfAGrafanaLabelValuesQuery() {
        assertEquals(
                Set.of("kcscale_tasks_max"), PromQlNames.ofVariableQuery("label_values(kcscale_tasks_max, connector)"));
        assertEquals(Set.of("x"), PromQlNames.ofVariableQuery("label_values(x{job=\"a\"}, task)"));
        assertEquals(Set.of(), PromQlNames.ofVariableQuery("label_values(connector)"));
    }
}
