package io.kcscale.scaler.checks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A worker's CPU from what its exporter or a Prometheus server publishes: the process's CPU-seconds counter over
 * a window that starts after the JVM's warm-up (class loading and JIT compilers spend cores in the first
 * minute whatever the load, and would make a fresh worker look CPU-bound), against the processors the JVM
 * counts (a container's limit included). And which source's reading stands for a worker.
 */
public final class WorkerCpuRates {

    /** The JVM's first minute is not the worker's load: a window starts at least this long after its process did. */
    public static final Duration WARM_UP = Duration.ofSeconds(60);
    /** The shortest window a rate is read over: the CPU counter moves in 10 ms ticks. */
    public static final Duration SHORTEST = Duration.ofSeconds(1);

    private WorkerCpuRates() {}

    /**
     * One scrape of a worker's exporter.
     *
     * @param atMillis     when it was read, epoch milliseconds (the scaler's clock)
     * @param cpuSeconds   {@code process_cpu_seconds_total}
     * @param startSeconds {@code process_start_time_seconds}, epoch seconds (the worker host's clock)
     * @param processors   the processors the JVM counts; NaN when not published
     * @param hostBusy     the share of the host's (container's) processor time in use, 0 to 1; NaN when not published
     */
    public record Scrape(long atMillis, double cpuSeconds, double startSeconds, double processors, double hostBusy) {}

    /** The worker's CPU between two scrapes of its exporter, or unknown saying why not. */
    public static WorkerCpu between(String workerId, Scrape earlier, Scrape later, WorkerCpuSource source) {
        if (Math.abs(later.startSeconds() - earlier.startSeconds()) > 1 || later.cpuSeconds() < earlier.cpuSeconds()) {
            return WorkerCpu.unknown(
                    workerId, source.label() + ": its process restarted between two readings; read again");
        }
        long elapsed = later.atMillis() - earlier.atMillis();
        if (elapsed < SHORTEST.toMillis()) {
            return WorkerCpu.unknown(
                    workerId, source.label() + ": two readings " + elapsed + " ms apart are too close to rate");
        }
        String warming = warmingUp(earlier.atMillis() / 1000.0, earlier.startSeconds(), source);
        if (warming != null) {
            return WorkerCpu.unknown(workerId, warming);
        }
        return figures(
                workerId,
                (later.cpuSeconds() - earlier.cpuSeconds()) * 1000 / elapsed,
                later.processors(),
                later.hostBusy(),
                source);
    }

    /**
     * The worker's CPU from a rate a Prometheus server computed over {@code window} ending at {@code evalSeconds}
     * (both on the server's clock, as is the process's start), or unknown saying why not.
     */
    public static WorkerCpu ofRate(
            String workerId,
            double cores,
            double processors,
            double hostBusy,
            double startSeconds,
            double evalSeconds,
            Duration window,
            WorkerCpuSource source) {
        String warming = warmingUp(evalSeconds - window.toSeconds(), startSeconds, source);
        return warming != null
                ? WorkerCpu.unknown(workerId, warming)
                : figures(workerId, cores, processors, hostBusy, source);
    }

    /**
     * The reading that stands for a worker: the first of {@code tried} (in the order the sources were tried) that
     * read it; when none did, unknown with every source's reason, so that the finding says what would read it.
     */
    public static WorkerCpu chosen(String workerId, List<WorkerCpu> tried) {
        List<String> reasons = new ArrayList<>();
        for (WorkerCpu w : tried) {
            if (w.known()) {
                return w;
            }
            reasons.add(w.unknown());
        }
        return WorkerCpu.unknown(
                workerId, reasons.isEmpty() ? "no source is set to read it" : String.join("; ", reasons));
    }

    /** Why a window starting at {@code fromSeconds} is too early in the process's life, or null when it is past the warm-up. */
    private static String warmingUp(double fromSeconds, double startSeconds, WorkerCpuSource source) {
        if (!Double.isFinite(startSeconds)) {
            return null;
        }
        double age = fromSeconds - startSeconds;
        return age >= WARM_UP.toSeconds()
                ? null
                : String.format(
                        Locale.ROOT,
                        "%s: its JVM is warming up (the window starts %.0f s after its process did; it is read from %d s on)",
                        source.label(),
                        Math.max(0, age),
                        WARM_UP.toSeconds());
    }

    private static WorkerCpu figures(
            String workerId, double cores, double processors, double hostBusy, WorkerCpuSource source) {
        if (!(Double.isFinite(cores) && cores >= 0)) {
            return WorkerCpu.unknown(
                    workerId, source.label() + ": its CPU rate is not a number of cores (" + cores + ")");
        }
        if (!(Double.isFinite(processors) && processors >= 1 && processors <= 100_000)) {
            return WorkerCpu.unknown(
                    workerId,
                    source.label() + ": no processor count (java_lang_operatingsystem_availableprocessors);"
                            + " give the exporter configs/jmx-exporter/connect-worker.yml's rules");
        }
        double busy = Double.isFinite(hostBusy) && hostBusy >= 0 && hostBusy <= 1 ? hostBusy : Double.NaN;
        return WorkerCpu.read(workerId, cores, (int) Math.round(processors), busy, source);
    }
}
