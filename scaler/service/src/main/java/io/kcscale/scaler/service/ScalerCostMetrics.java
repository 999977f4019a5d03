package io.kcscale.scaler.service;

import com.sun.management.GcInfo;
import io.kcscale.scaler.observe.PipelineWatcher;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What the scaler itself costs, as Prometheus metrics: each sampling round's duration and connectors, the
 * process's CPU time and its heap used after the latest garbage collection (the live data plus what that
 * collection left, not the garbage a scrape would happen to see). Read by {@code kcscale bench scaler}.
 */
final class ScalerCostMetrics implements PipelineWatcher.RoundListener {

    /** Fine enough that a quantile read from the buckets is within half a bucket, from 1 ms to a round far beyond its interval. */
    private static final double[] ROUND_BUCKETS = {
        0.001, 0.002, 0.003, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.03, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1,
        1.5, 2, 3, 5, 10, 30
    };

    private final Histogram roundSeconds = Histogram.builder()
            .name("kcscale_sampling_round_seconds")
            .help(
                    "Duration of one sampling round: Connect's expanded status, then Kafka and Elasticsearch for every sink connector")
            .classicUpperBounds(ROUND_BUCKETS)
            .classicOnly()
            .build();
    private final Gauge roundConnectors = Gauge.builder()
            .name("kcscale_sampling_round_connectors")
            .help("Sink connectors the latest sampling round sampled")
            .build();

    @Override
    public void accept(int connectors, long nanos) {
        roundSeconds.observe(nanos / 1e9);
        roundConnectors.set(connectors);
    }

    void register(PrometheusRegistry registry) {
        registry.register(roundSeconds);
        registry.register(roundConnectors);
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        CounterWithCallback.builder()
                .name("kcscale_scaler_cpu_seconds")
                .help("CPU time the scaler's process used, all threads")
                .callback(cb -> cb.call(os.getProcessCpuTime() / 1e9))
                .register(registry);
        GaugeWithCallback.builder()
                .name("kcscale_scaler_heap_used_after_gc_bytes")
                .help("The scaler's heap in use right after its latest garbage collection")
                .callback(cb -> {
                    Long used = heapUsedAfterLatestGc();
                    if (used != null) {
                        cb.call(used);
                    }
                })
                .register(registry);
        GaugeWithCallback.builder()
                .name("kcscale_scaler_heap_max_bytes")
                .help("The most heap the scaler's JVM may use (-Xmx)")
                .callback(cb -> cb.call(
                        ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getMax()))
                .register(registry);
    }

    /** Summed over the heap's pools, from the collector that ran last; null before the first collection. */
    private static Long heapUsedAfterLatestGc() {
        Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP)
                .map(MemoryPoolMXBean::getName)
                .collect(Collectors.toSet());
        GcInfo latest = null;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof com.sun.management.GarbageCollectorMXBean sun) {
                GcInfo info = sun.getLastGcInfo();
                if (info != null && (latest == null || info.getEndTime() > latest.getEndTime())) {
                    latest = info;
                }
            }
        }
        if (latest == null) {
            return null;
        }
        long used = 0;
        for (Map.Entry<String, MemoryUsage> pool :
                latest.getMemoryUsageAfterGc().entrySet()) {
            if (heapPools.contains(pool.getKey())) {
                used += pool.getValue().getUsed();
            }
        }
        return used;
    }
}
