package io.kcscale.scaler.prometheus;

import io.kcscale.scaler.prometheus.BoundedGet.MetricsReadException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The few unlabelled samples a worker's CPU is read from, out of an exporter's Prometheus text exposition. Only
 * those lines are parsed; anything else there is skipped. A body that is no exposition at all (an HTML page, JSON,
 * noise) or that lacks the process's CPU counter is said in one line.
 */
final class ExporterText {

    static final String CPU_SECONDS = "process_cpu_seconds_total";
    static final String START_SECONDS = "process_start_time_seconds";
    /** Published by configs/jmx-exporter/connect-worker.yml's rule on the {@code java.lang:type=OperatingSystem} bean. */
    static final String PROCESSORS = "java_lang_operatingsystem_availableprocessors";

    static final String HOST_LOAD = "java_lang_operatingsystem_cpuload";
    private static final Set<String> WANTED = Set.of(CPU_SECONDS, START_SECONDS, PROCESSORS, HOST_LOAD);

    private ExporterText() {}

    /** The wanted samples by name; {@code source} names the endpoint in the error line. */
    static Map<String, Double> parse(String body, String source) throws MetricsReadException {
        Map<String, Double> values = new TreeMap<>();
        boolean sawSample = scan(body, source, WANTED::contains, s -> {
            if (s.labels().isEmpty()) {
                values.put(s.name(), s.value());
            }
        });
        if (!values.containsKey(CPU_SECONDS)) {
            throw new MetricsReadException(source + " publishes no " + CPU_SECONDS
                    + (sawSample ? "" : " (it answered no metrics at all)") + ": is it a worker's JMX exporter?");
        }
        return values;
    }

    /**
     * Hands each sample whose name is {@code wanted} to {@code each}, skipping the rest unparsed beyond their name.
     *
     * @return whether the body held any sample at all
     * @throws MetricsReadException when the body is no exposition (an HTML page, JSON, noise), or a wanted sample is
     *                              malformed
     */
    static boolean scan(String body, String source, Predicate<String> wanted, Consumer<ExpositionSample> each)
            throws MetricsReadException {
        boolean sawSample = false;
        for (String line : body.split("\n", -1)) {
            Optional<ExpositionSample> sample;
            try {
                sample = ExpositionSample.parse(line);
            } catch (ExpositionSample.Malformed e) {
                if (e.name().isPresent() && wanted.test(e.name().get())) {
                    throw new MetricsReadException(source + " gave " + e.name().get() + " " + e.problem());
                }
                if (!sawSample && e.name().isEmpty()) {
                    throw new MetricsReadException(source + " answered no Prometheus metrics (it begins \""
                            + ExpositionSample.excerpt(line.strip()) + "\")");
                }
                sawSample |= e.name().isPresent();
                continue;
            }
            if (sample.isEmpty()) {
                continue;
            }
            sawSample = true;
            if (wanted.test(sample.get().name())) {
                each.accept(sample.get());
            }
        }
        return sawSample;
    }
}
