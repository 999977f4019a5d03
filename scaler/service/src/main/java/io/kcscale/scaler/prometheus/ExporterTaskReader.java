package io.kcscale.scaler.prometheus;

import io.kcscale.scaler.checks.WorkerCpuSource;
import io.kcscale.scaler.model.PipelineSample;
import io.kcscale.scaler.prometheus.BoundedGet.MetricsReadException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * What the workers' JMX exporters publish of the sink tasks, scraped directly, all workers at once: the scrapes start
 * when asked and are read when awaited, so that a sampling round waits for them alongside its Kafka and Elasticsearch
 * reads, not after them. An exporter that failed is not asked again for {@link #AFTER_FAILURE}: a dead exporter costs
 * a round its timeout once in a while, not every round.
 */
public final class ExporterTaskReader {

    static final Duration TIMEOUT = Duration.ofSeconds(3);
    /** As for the CPU: a worker's exporter with this file's rules answers tens of KiB, a few MiB with many tasks. */
    static final int MAX_BYTES = 4 << 20;

    static final Duration AFTER_FAILURE = Duration.ofSeconds(30);
    /** Failures remembered at most, so that a churning group cannot grow the map without end. */
    static final int MAX_REMEMBERED = 1024;

    private final BoundedGet get = new BoundedGet(TIMEOUT, MAX_BYTES);
    private final Map<URI, Failure> failures = new ConcurrentHashMap<>();
    private final LongSupplier clock;

    private record Failure(long atMillis, String why) {}

    /**
     * One worker's reading: each connector's tasks on it, or why there is none.
     *
     * @param tasks   by connector, then task id; empty when {@code failure} is set
     * @param failure one line saying why the worker was not read, or null
     */
    public record Result(Map<String, Map<Integer, PipelineSample.TaskMetrics>> tasks, String failure) {}

    /** Scrapes started; {@link #await} reads them. */
    public interface Pending {
        /** Each worker's result, by worker; within {@link #TIMEOUT} and a second. */
        Map<String, Result> await();
    }

    public ExporterTaskReader(LongSupplier clock) {
        this.clock = clock;
    }

    /**
     * @param urls   each worker's exporter, by worker
     * @param topics each connector to read, with its topics
     */
    public Pending start(Map<String, URI> urls, Map<String, List<String>> topics) {
        long now = clock.getAsLong();
        Map<String, CompletableFuture<HttpResponse<InputStream>>> started = new TreeMap<>();
        Map<String, Result> known = new TreeMap<>();
        urls.forEach((worker, url) -> {
            Failure failed = failures.get(url);
            if (failed != null && now - failed.atMillis() < AFTER_FAILURE.toMillis()) {
                known.put(worker, new Result(Map.of(), failed.why()));
            } else {
                started.put(worker, get.start(url));
            }
        });
        return () -> {
            Map<String, Result> read = new TreeMap<>(known);
            started.forEach((worker, request) -> {
                URI url = urls.get(worker);
                try {
                    TaskSeries series = new TaskSeries(topics);
                    ExporterText.scan(
                            get.body(url, request),
                            url.toString(),
                            TaskSeries.NAMES::contains,
                            s -> series.add(s.name(), s.labels(), s.value()));
                    failures.remove(url);
                    read.put(worker, new Result(series.tasks(WorkerCpuSource.EXPORTER.label()), null));
                } catch (MetricsReadException e) {
                    String why = WorkerCpuSource.EXPORTER.label() + ": " + e.getMessage();
                    if (failures.size() >= MAX_REMEMBERED) {
                        failures.clear();
                    }
                    failures.put(url, new Failure(clock.getAsLong(), why));
                    read.put(worker, new Result(Map.of(), why));
                }
            });
            return read;
        };
    }
}
