package io.kcscale.scaler.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kcscale.scaler.checks.WorkerCpuSource;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class WorkerCpuSettingsTest {

    @Test
    void aTemplateAndNamedWorkersGiveEachWorkerItsExporter() {
        WorkerCpuSettings s = WorkerCpuSettings.fromValues(Map.of(
                "worker.metrics.urls", "http://{host}:9404/metrics, 127.0.0.1:8084=http://127.0.0.1:9405/metrics"));
        assertEquals(Optional.of(URI.create("http://10.0.0.7:9404/metrics")), s.metricsUrl("10.0.0.7:8083"));
        assertEquals(Optional.of(URI.create("http://127.0.0.1:9405/metrics")), s.metricsUrl("127.0.0.1:8084"));
        assertEquals(Optional.empty(), s.metricsUrl("no-port"));
        assertEquals(List.of(WorkerCpuSource.EXPORTER, WorkerCpuSource.PROC), s.sources());
        WorkerCpuSettings byPort =
                WorkerCpuSettings.fromValues(Map.of("worker.metrics.urls", "http://{host}:1{port}/metrics"));
        assertEquals(Optional.of(URI.create("http://w:18083/metrics")), byPort.metricsUrl("w:8083"));
    }

    @Test
    void theSourcesInOrderOrTheOneChosen() {
        assertEquals(
                List.of(WorkerCpuSource.PROC),
                WorkerCpuSettings.fromValues(Map.of()).sources());
        Map<String, String> both =
                Map.of("worker.metrics.urls", "http://{host}:9404/metrics", "prometheus.url", "http://p:9090");
        assertEquals(
                List.of(WorkerCpuSource.EXPORTER, WorkerCpuSource.PROMETHEUS, WorkerCpuSource.PROC),
                WorkerCpuSettings.fromValues(both).sources());
        Map<String, String> onlyPrometheus = new java.util.HashMap<>(both);
        onlyPrometheus.put("worker.cpu.source", "prometheus");
        assertEquals(
                List.of(WorkerCpuSource.PROMETHEUS),
                WorkerCpuSettings.fromValues(onlyPrometheus).sources());
    }

    @Test
    void badValuesAreOneLineNamingTheKey() {
        assertEquals(
                "worker.cpu.source (--worker-cpu-source) must be auto, exporter, prometheus or proc, got jmx",
                bad(Map.of("worker.cpu.source", "jmx")));
        assertEquals(
                "worker.cpu.source exporter needs worker.metrics.urls (--worker-metrics-url), e.g. http://{host}:9404/metrics",
                bad(Map.of("worker.cpu.source", "exporter")));
        assertEquals(
                "prometheus.url needs worker.metrics.urls (--worker-metrics-url) too: Prometheus knows a worker by its exporter's"
                        + " host:port (the instance label), which that URL gives",
                bad(Map.of("prometheus.url", "http://p:9090")));
        assertEquals(
                "worker.metrics.urls (--worker-metrics-url) must have {host} in it (the worker's host; {port} is its REST port), e.g."
                        + " http://{host}:9404/metrics, or be WORKER=URL; got http://w:9404/metrics",
                bad(Map.of("worker.metrics.urls", "http://w:9404/metrics")));
        assertEquals(
                "worker.metrics.urls (--worker-metrics-url) WORKER=URL names a worker as Connect does, host:port, got w",
                bad(Map.of("worker.metrics.urls", "w=http://w:9404/metrics")));
        assertEquals(
                "worker.metrics.urls (--worker-metrics-url) must be an http(s) URL with a host, e.g. http://{host}:9404/metrics;"
                        + " got ftp://w/",
                bad(Map.of("worker.metrics.urls", "w:8083=ftp://w/")));
        assertEquals(
                "prometheus.url (--prometheus-url) must be an http(s) URL with a host, e.g. http://127.0.0.1:9090; got 9090",
                bad(Map.of("prometheus.url", "9090", "worker.metrics.urls", "http://{host}:9404/metrics")));
    }

    private static String bad(Map<String, String> values) {
        return assertThrows(IllegalArgumentException.class, () -> WorkerCpuSettings.fromValues(values))
                .getMessage();
    }
}
