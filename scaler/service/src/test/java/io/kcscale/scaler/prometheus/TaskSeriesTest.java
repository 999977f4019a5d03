package io.kcscale.scaler.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.kcscale.scaler.model.PipelineSample;
import io.kcscale.scaler.model.TopicPartition;
import io.kcscale.scaler.prometheus.BoundedGet.MetricsReadException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TaskSeriesTest {

    /** As the JMX exporter 1.0.1 with configs/jmx-exporter/connect-worker.yml answered on the local stack (trimmed). */
    private static final String EXPOSITION = """
            kafka_connect_connector_task_batch_size_avg{connector="stocks-datagen",task="0",} 1.003
            kafka_connect_connector_task_batch_size_avg{connector="stocks-es-sink",task="0",} 1.55
            kafka_connect_sink_task_put_batch_avg_time_ms{connector="stocks-es-sink",task="0",} 49.9
            kafka_connect_sink_task_sink_record_read_rate{connector="stocks-es-sink",task="0",} 21.04
            kafka_connect_sink_task_sink_record_read_total{connector="stocks-es-sink",task="0",} 2221.0
            kafka_consumer_last_poll_seconds_ago{connector="stocks-es-sink",task="0",} 0.0
            kafka_consumer_time_between_poll_avg{connector="stocks-es-sink",task="0",} 87.0
            kafka_consumer_poll_idle_ratio_avg{connector="stocks-es-sink",task="0",} 0.2393
            kafka_consumer_poll_idle_ratio_avg{connector="stocks-es-sink",task="1",} NaN
            kafka_consumer_records_lag{connector="stocks-es-sink",partition="0",task="0",topic="stocks",} 3.0
            kafka_consumer_records_lag{connector="stocks-es-sink",partition="1",task="0",topic="stocks",} 0.0
            kafka_consumer_records_lag_max{connector="stocks-es-sink",partition="1",task="0",topic="stocks",} 9.0
            kafka_consumer_records_lag{connector="orders-sink",partition="4",task="2",topic="eu_orders",} 7.0
            kafka_consumer_records_lag{connector="orders-sink",partition="5",task="2",topic="eu_orders_",} 7.0
            process_cpu_seconds_total 41.87
            """;

    private static Map<String, Map<Integer, PipelineSample.TaskMetrics>> read(Map<String, List<String>> topics)
            throws MetricsReadException {
        TaskSeries series = new TaskSeries(topics);
        ExporterText.scan(
                EXPOSITION, "x", TaskSeries.NAMES::contains, s -> series.add(s.name(), s.labels(), s.value()));
        return series.tasks("exporter");
    }

    @Test
    void eachTaskOfTheConnectorsAskedForWithItsPartitionsLag() throws MetricsReadException {
        Map<String, Map<Integer, PipelineSample.TaskMetrics>> read = read(Map.of("stocks-es-sink", List.of("stocks")));
        assertEquals(
                new PipelineSample.TaskMetrics(
                        "exporter",
                        0.2393,
                        0.0,
                        87.0,
                        21.04,
                        49.9,
                        1.55,
                        Map.of(new TopicPartition("stocks", 0), 3L, new TopicPartition("stocks", 1), 0L)),
                read.get("stocks-es-sink").get(0));
        assertNull(read.get("stocks-es-sink").get(1).pollIdleRatio(), "NaN, before the first poll, is no figure");
        assertEquals(List.of("stocks-es-sink"), List.copyOf(read.keySet()), "the source's series are not asked for");
    }

    @Test
    void aTopicsLabelHasItsDotsAsUnderscoresAndOneTwoTopicsShareIsNeithers() throws MetricsReadException {
        Map<Integer, PipelineSample.TaskMetrics> orders = read(Map.of(
                        "orders-sink", List.of("eu.orders", "eu.orders.", "eu_orders_")))
                .get("orders-sink");
        assertEquals(
                Map.of(new TopicPartition("eu.orders", 4), 7L), orders.get(2).recordsLag());
    }

    @Test
    void theSeriesKeptFromOneWorkerAreBounded() {
        TaskSeries series = new TaskSeries(Map.of("s", List.of("t")));
        for (int i = 0; i < TaskSeries.MAX_SERIES; i++) {
            series.add(
                    TaskSeries.RECORDS_LAG,
                    Map.of("connector", "s", "task", "0", "topic", "t", "partition", "" + i),
                    1);
        }
        assertFalse(series.add(TaskSeries.POLL_IDLE, Map.of("connector", "s", "task", "0"), 0.5));
        assertEquals(
                TaskSeries.MAX_SERIES,
                series.tasks("exporter").get("s").get(0).recordsLag().size());
    }
}
