package io.kcscale.scaler.prometheus;

import io.kcscale.scaler.checks.WorkerCpuSource;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Where the scaler reads the workers' CPU ({@code worker-capacity}): each worker's JMX exporter, a Prometheus server
 * that scrapes them, the worker's process on the scaler's host; each worker from the first of these that reads it.
 *
 * @param only           the one source to use, or empty for each that is set, in the order above
 * @param urlTemplate    a worker's exporter URL with {@code {host}} and optionally {@code {port}} (the worker's REST
 *                       port) in it, e.g. {@code http://{host}:9404/metrics}
 * @param urls           exporter URLs of named workers ({@code host:port} as Connect names them), over the template
 * @param prometheusUrl  a Prometheus server scraping the exporters; it knows a worker by the {@code instance} label
 *                       of its exporter, the {@code host:port} of the worker's exporter URL
 */
public record WorkerCpuSettings(
        Optional<WorkerCpuSource> only,
        Optional<String> urlTemplate,
        Map<String, URI> urls,
        Optional<URI> prometheusUrl) {

    /** Workers named one by one, at most: beyond, a template says it for all. */
    static final int MAX_NAMED = 256;

    public WorkerCpuSettings {
        urls = Map.copyOf(urls);
        boolean exporter = urlTemplate.isPresent() || !urls.isEmpty();
        if (only.filter(s -> s == WorkerCpuSource.EXPORTER).isPresent() && !exporter) {
            throw new IllegalArgumentException(
                    "worker.cpu.source exporter needs worker.metrics.urls (--worker-metrics-url), e.g."
                            + " http://{host}:9404/metrics");
        }
        if (only.filter(s -> s == WorkerCpuSource.PROMETHEUS).isPresent() && prometheusUrl.isEmpty()) {
            throw new IllegalArgumentException(
                    "worker.cpu.source prometheus needs prometheus.url (--prometheus-url), e.g. http://prometheus:9090");
        }
        if (prometheusUrl.isPresent() && !exporter) {
            throw new IllegalArgumentException(
                    "prometheus.url needs worker.metrics.urls (--worker-metrics-url) too: Prometheus knows a worker"
                            + " by its exporter's host:port (the instance label), which that URL gives");
        }
    }

    /**
     * The settings among a settings file's values ({@code worker.cpu.source}, {@code worker.metrics.urls} and
     * {@code prometheus.url}).
     *
     * @throws IllegalArgumentException naming the key of the first bad value
     */
    public static WorkerCpuSettings fromValues(Map<String, String> v) {
        Optional<WorkerCpuSource> only = Optional.empty();
        String source = v.getOrDefault("worker.cpu.source", "auto").strip();
        if (!source.equals("auto")) {
            only = Optional.ofNullable(WorkerCpuSource.of(source));
            if (only.isEmpty()) {
                throw new IllegalArgumentException(
                        "worker.cpu.source (--worker-cpu-source) must be auto, exporter, prometheus or proc, got "
                                + source);
            }
        }
        Optional<String> template = Optional.empty();
        Map<String, URI> urls = new TreeMap<>();
        for (String entry : Arrays.stream(
                        v.getOrDefault("worker.metrics.urls", "").split(","))
                .map(String::strip)
                .filter(s -> !s.isEmpty())
                .toList()) {
            int eq = entry.indexOf('=');
            if (eq < 0) {
                if (template.isPresent()) {
                    throw new IllegalArgumentException(
                            "worker.metrics.urls (--worker-metrics-url) takes one URL template; give the others"
                                    + " as WORKER=URL, got " + template.get() + " and " + entry);
                }
                template = Optional.of(template(entry));
            } else {
                String worker = entry.substring(0, eq).strip();
                if (!worker.matches("[^\\s:/]+:[0-9]{1,5}")) {
                    throw new IllegalArgumentException(
                            "worker.metrics.urls (--worker-metrics-url) WORKER=URL names a worker as Connect does,"
                                    + " host:port, got " + worker);
                }
                urls.put(worker, url(entry.substring(eq + 1).strip()));
            }
        }
        if (urls.size() > MAX_NAMED) {
            throw new IllegalArgumentException(
                    "worker.metrics.urls (--worker-metrics-url) names " + urls.size() + " workers; at most " + MAX_NAMED
                            + ": give a template such as http://{host}:9404/metrics instead");
        }
        Optional<URI> prometheus = Optional.ofNullable(v.get("prometheus.url"))
                .map(String::strip)
                .filter(s -> !s.isEmpty())
                .map(s -> {
                    try {
                        return http(s);
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException(
                                "prometheus.url (--prometheus-url) must be an http(s) URL with a host, e.g."
                                        + " http://127.0.0.1:9090; got " + s);
                    }
                });
        return new WorkerCpuSettings(only, template, urls, prometheus);
    }

    /** None set: each worker on the scaler's host is read from its process, any other is unknown. */
    public static WorkerCpuSettings none() {
        return new WorkerCpuSettings(Optional.empty(), Optional.empty(), Map.of(), Optional.empty());
    }

    /** The sources to try for each worker, in order. */
    public List<WorkerCpuSource> sources() {
        if (only.isPresent()) {
            return List.of(only.get());
        }
        List<WorkerCpuSource> order = new ArrayList<>();
        if (urlTemplate.isPresent() || !urls.isEmpty()) {
            order.add(WorkerCpuSource.EXPORTER);
        }
        prometheusUrl.ifPresent(p -> order.add(WorkerCpuSource.PROMETHEUS));
        order.add(WorkerCpuSource.PROC);
        return order;
    }

    /** The exporter URL of a worker ({@code host:port}), or empty when neither a named URL nor the template gives one. */
    public Optional<URI> metricsUrl(String workerId) {
        URI named = urls.get(workerId);
        if (named != null) {
            return Optional.of(named);
        }
        int colon = workerId.lastIndexOf(':');
        if (urlTemplate.isEmpty()
                || colon <= 0
                || !workerId.substring(colon + 1).matches("[0-9]{1,5}")) {
            return Optional.empty();
        }
        try {
            return Optional.of(http(urlTemplate
                    .get()
                    .replace("{host}", workerId.substring(0, colon))
                    .replace("{port}", workerId.substring(colon + 1))));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * The {@code instance} label a Prometheus scraping the worker's exporter gives its series: the {@code host:port} of
     * its exporter URL; empty when no URL is known for it.
     */
    public Optional<String> instance(String workerId) {
        return metricsUrl(workerId)
                .map(u -> u.getHost() + ":"
                        + (u.getPort() > 0 ? u.getPort() : u.getScheme().equals("https") ? 443 : 80));
    }

    /** For the settings' own line: the template and the named workers. */
    @Override
    public String toString() {
        return "WorkerCpuSettings[source=" + only.map(WorkerCpuSource::label).orElse("auto") + ", urlTemplate="
                + urlTemplate.orElse(null) + ", urls=" + new TreeMap<>(urls) + ", prometheusUrl="
                + prometheusUrl.orElse(null) + "]";
    }

    private static String template(String value) {
        if (!value.contains("{host}")) {
            throw new IllegalArgumentException(
                    "worker.metrics.urls (--worker-metrics-url) must have {host} in it (the worker's host; {port} is"
                            + " its REST port), e.g. http://{host}:9404/metrics, or be WORKER=URL; got " + value);
        }
        url(value.replace("{host}", "worker.example").replace("{port}", "8083"));
        return value;
    }

    private static URI url(String value) {
        try {
            return http(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "worker.metrics.urls (--worker-metrics-url) must be an http(s) URL with a host, e.g."
                            + " http://{host}:9404/metrics; got " + value);
        }
    }

    private static URI http(String value) {
        URI uri = URI.create(value);
        if (uri.getHost() == null
                || uri.getScheme() == null
                || !(uri.getScheme().equals("http") || uri.getScheme().equals("https"))) {
            throw new IllegalArgumentException(value);
        }
        return uri;
    }
}
