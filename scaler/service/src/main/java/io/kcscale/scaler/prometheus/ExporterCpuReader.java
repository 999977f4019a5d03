package io.kcscale.scaler.prometheus;

import io.kcscale.scaler.checks.WorkerCpu;
import io.kcscale.scaler.checks.WorkerCpuRates;
import io.kcscale.scaler.checks.WorkerCpuSource;
import io.kcscale.scaler.prometheus.BoundedGet.MetricsReadException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Workers' CPU from their JMX exporters' {@code /metrics}, scraped directly, all at once: the process's CPU counter
 * between this scrape and the worker's previous one (a scrape of its own when the last is old or missing). Each
 * exporter that fails or answers garbage leaves its worker unknown, saying why; the others are read all the same.
 */
public final class ExporterCpuReader {

    static final Duration TIMEOUT = Duration.ofSeconds(3);
    /** A worker's exporter with this file's rules answers tens of KiB; a page past this is not one. */
    static final int MAX_BYTES = 4 << 20;
    /** A scrape older than this says little about now: measure afresh. */
    static final Duration OLDEST = Duration.ofMinutes(2);
    /** Workers remembered at most (their last scrape), so that a churning group cannot grow the map without end. */
    static final int MAX_REMEMBERED = 1024;

    private final BoundedGet get = new BoundedGet(TIMEOUT, MAX_BYTES);
    private final Map<String, WorkerCpuRates.Scrape> previous = new ConcurrentHashMap<>();
    private final LongSupplier clock;

    public ExporterCpuReader(LongSupplier clock) {
        this.clock = clock;
    }

    /** Each worker's CPU from its exporter at the URL given; may take {@link WorkerCpuRates#SHORTEST} when one has no recent scrape. */
    public Map<String, WorkerCpu> read(Map<String, URI> urls) {
        Map<String, Object> now = scrapeAll(urls);
        Map<String, WorkerCpu> read = new TreeMap<>();
        Map<String, URI> again = new TreeMap<>();
        now.forEach((id, scrape) -> {
            WorkerCpuRates.Scrape last = previous.get(id);
            if (scrape instanceof String why) {
                read.put(id, WorkerCpu.unknown(id, "exporter: " + why));
            } else if (last != null
                    && ((WorkerCpuRates.Scrape) scrape).atMillis() - last.atMillis()
                            >= WorkerCpuRates.SHORTEST.toMillis()
                    && ((WorkerCpuRates.Scrape) scrape).atMillis() - last.atMillis() <= OLDEST.toMillis()) {
                read.put(
                        id, WorkerCpuRates.between(id, last, (WorkerCpuRates.Scrape) scrape, WorkerCpuSource.EXPORTER));
            } else {
                again.put(id, urls.get(id));
            }
            remember(id, scrape);
        });
        if (!again.isEmpty()) {
            // an interval to measure over, not a wait for a state: the counter's growth over it is the reading
            try {
                Thread.sleep(WorkerCpuRates.SHORTEST.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                again.keySet()
                        .forEach(id -> read.put(id, WorkerCpu.unknown(id, "exporter: interrupted while reading")));
                return read;
            }
            scrapeAll(again).forEach((id, scrape) -> {
                WorkerCpuRates.Scrape first = previous.get(id);
                read.put(
                        id,
                        scrape instanceof String why
                                ? WorkerCpu.unknown(id, "exporter: " + why)
                                : first == null
                                        ? WorkerCpu.unknown(
                                                id, "exporter: no earlier scrape to rate against; read again")
                                        : WorkerCpuRates.between(
                                                id, first, (WorkerCpuRates.Scrape) scrape, WorkerCpuSource.EXPORTER));
                remember(id, scrape);
            });
        }
        return read;
    }

    private void remember(String id, Object scrape) {
        if (scrape instanceof WorkerCpuRates.Scrape s) {
            if (previous.size() >= MAX_REMEMBERED && !previous.containsKey(id)) {
                previous.clear();
            }
            previous.put(id, s);
        }
    }

    /** Each worker's scrape, or the line saying why there is none. */
    private Map<String, Object> scrapeAll(Map<String, URI> urls) {
        Map<String, CompletableFuture<HttpResponse<InputStream>>> pending = new TreeMap<>();
        urls.forEach((id, url) -> pending.put(id, get.start(url)));
        Map<String, Object> scrapes = new TreeMap<>();
        pending.forEach((id, request) -> {
            URI url = urls.get(id);
            try {
                Map<String, Double> v = ExporterText.parse(get.body(url, request), url.toString());
                scrapes.put(
                        id,
                        new WorkerCpuRates.Scrape(
                                clock.getAsLong(),
                                v.get(ExporterText.CPU_SECONDS),
                                v.getOrDefault(ExporterText.START_SECONDS, Double.NaN),
                                v.getOrDefault(ExporterText.PROCESSORS, Double.NaN),
                                v.getOrDefault(ExporterText.HOST_LOAD, Double.NaN)));
            } catch (MetricsReadException e) {
                scrapes.put(id, e.getMessage());
            }
        });
        return scrapes;
    }
}
