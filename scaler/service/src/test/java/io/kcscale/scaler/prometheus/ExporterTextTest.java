package io.kcscale.scaler.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kcscale.scaler.prometheus.BoundedGet.MetricsReadException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExporterTextTest {

    /** As the JMX exporter 1.0.1 agent with configs/jmx-exporter/connect-worker.yml answered (trimmed). */
    private static final String EXPOSITION = """
            # HELP java_lang_operatingsystem_availableprocessors AvailableProcessors (java.lang<type=OperatingSystem><>AvailableProcessors)
            # TYPE java_lang_operatingsystem_availableprocessors gauge
            java_lang_operatingsystem_availableprocessors 2.0
            java_lang_operatingsystem_cpuload 0.31
            kafka_connect_sink_task_sink_record_read_total{connector="stocks-es-sink",task="0",} 1200.0
            # TYPE process_cpu_seconds_total counter
            process_cpu_seconds_total 41.87
            process_start_time_seconds 1.795763708774E9
            """;

    @Test
    void readsTheUnlabelledCpuFiguresAndSkipsTheRest() throws MetricsReadException {
        assertEquals(
                Map.of(
                        "java_lang_operatingsystem_availableprocessors",
                        2.0,
                        "java_lang_operatingsystem_cpuload",
                        0.31,
                        "process_cpu_seconds_total",
                        41.87,
                        "process_start_time_seconds",
                        1.795763708774E9),
                ExporterText.parse(EXPOSITION, "x"));
    }

    @Test
    void garbageIsOneLineSayingWhatCameBack() {
        assertEquals(
                "http://w:9404/metrics answered no Prometheus metrics (it begins \"<html><body>Not here</body></html>\")",
                assertThrows(
                                MetricsReadException.class,
                                () -> ExporterText.parse(
                                        "<html><body>Not here</body></html>\n", "http://w:9404/metrics"))
                        .getMessage());
        assertEquals(
                "http://w:8083/ answered no Prometheus metrics (it begins \"{\"version\":\"4.3.1\"}\")",
                assertThrows(
                                MetricsReadException.class,
                                () -> ExporterText.parse("{\"version\":\"4.3.1\"}", "http://w:8083/"))
                        .getMessage());
        assertEquals(
                "e gave process_cpu_seconds_total a value that is no number: \"lots\"",
                assertThrows(
                                MetricsReadException.class,
                                () -> ExporterText.parse("process_cpu_seconds_total lots\n", "e"))
                        .getMessage());
        assertEquals(
                "e publishes no process_cpu_seconds_total: is it a worker's JMX exporter?",
                assertThrows(MetricsReadException.class, () -> ExporterText.parse("up 1\n", "e"))
                        .getMessage());
        assertEquals(
                "e publishes no process_cpu_seconds_total (it answered no metrics at all): is it a worker's JMX exporter?",
                assertThrows(MetricsReadException.class, () -> ExporterText.parse("", "e"))
                        .getMessage());
    }
}
