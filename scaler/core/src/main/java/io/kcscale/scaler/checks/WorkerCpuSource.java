package io.kcscale.scaler.checks;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * Where a worker's CPU is read: its JMX exporter's {@code /metrics}, scraped directly; a Prometheus server that
 * scrapes those exporters; or the worker's process, when it runs on the scaler's own host.
 */
public enum WorkerCpuSource {
    EXPORTER("--worker-metrics-url"),
    PROMETHEUS("--prometheus-url"),
    PROC(null);

    private final String flag;

    WorkerCpuSource(String flag) {
        this.flag = flag;
    }

    /** The name in JSON, settings and the CLI: {@code exporter}, {@code prometheus}, {@code proc}. */
    @JsonValue
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The {@code serve} flag that points the scaler at this source; null for {@code proc}, which needs none. */
    public String flag() {
        return flag;
    }

    /** The source of this label, or null when none has it. */
    public static WorkerCpuSource of(String label) {
        for (WorkerCpuSource s : values()) {
            if (s.label().equals(label)) {
                return s;
            }
        }
        return null;
    }
}
