package io.kcscale.scaler.prometheus;

import io.kcscale.scaler.prometheus.BoundedGet.MetricsReadException;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

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
        boolean sawSample = false;
        for (String line : body.split("\n", -1)) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            int space = l.indexOf(' ');
            String name = space < 0 ? l : l.substring(0, space);
            int brace = name.indexOf('{');
            String bare = brace < 0 ? name : name.substring(0, brace);
            if (!bare.matches("[a-zA-Z_:][a-zA-Z0-9_:]*")) {
                if (!sawSample) {
                    throw new MetricsReadException(
                            source + " answered no Prometheus metrics (it begins \"" + excerpt(l) + "\")");
                }
                continue;
            }
            sawSample = true;
            if (brace >= 0 || space < 0 || !WANTED.contains(bare)) {
                continue;
            }
            String[] rest = l.substring(space + 1).strip().split("\\s+");
            try {
                values.put(bare, Double.parseDouble(rest[0]));
            } catch (NumberFormatException e) {
                throw new MetricsReadException(
                        source + " gave " + bare + " a value that is no number: \"" + excerpt(rest[0]) + "\"");
            }
        }
        if (!values.containsKey(CPU_SECONDS)) {
            throw new MetricsReadException(source + " publishes no " + CPU_SECONDS
                    + (sawSample ? "" : " (it answered no metrics at all)") + ": is it a worker's JMX exporter?");
        }
        return values;
    }

    private static String excerpt(String s) {
        String one = s.replaceAll("\\p{Cntrl}", "?");
        return one.length() > 60 ? one.substring(0, 60) + "…" : one;
    }
}
