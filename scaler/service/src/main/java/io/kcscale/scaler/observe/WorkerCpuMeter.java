package io.kcscale.scaler.observe;

import io.kcscale.scaler.checks.WorkerCpu;
import io.kcscale.scaler.ports.WorkerCpuReadings;
import java.io.IOException;
import java.io.Reader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The CPU of the Connect workers that run on the scaler's own host, read from their processes: a worker
 * is the {@code ConnectDistributed} process whose properties file advertises its {@code host:port}; its
 * CPU is the growth of the process's CPU time between two readings, and its host's the growth of the
 * kernel's busy time over the same two readings. No exporter or agent is needed, so
 * it works with or without {@code --metrics}; workers on other hosts are left unread, and said so.
 */
public final class WorkerCpuMeter implements WorkerCpuReadings {

    private static final String CONNECT_MAIN = "org.apache.kafka.connect.cli.ConnectDistributed";
    /** The shortest interval a rate is read over: CPU time ticks in 10 ms steps. */
    private static final Duration SHORTEST = Duration.ofSeconds(1);
    /** A reading older than this says little about now: measure afresh. */
    private static final Duration OLDEST = Duration.ofMinutes(2);

    /** A process's CPU time, and the host's counters read with it (null where the host gives none). */
    private record Reading(long atNanos, long cpuNanos, HostCpuTicks host) {}

    private final Map<Long, Reading> previous = new ConcurrentHashMap<>();

    /** Reads the workers named (Connect's {@code host:port} ids); may take {@link #SHORTEST} when a worker has no recent reading. */
    @Override
    public Result read(Collection<String> workerIds) {
        Map<String, ProcessHandle> local = localWorkers();
        Map<String, ProcessHandle> found = new TreeMap<>();
        List<String> missing = new ArrayList<>();
        for (String id : workerIds) {
            ProcessHandle p = local.get(id);
            if (p == null) {
                missing.add(id);
            } else {
                found.put(id, p);
            }
        }
        if (found.isEmpty()) {
            return new Result(
                    null,
                    workerIds.isEmpty()
                            ? "Connect named no worker running the sink's tasks"
                            : "no worker of " + workerIds + " runs on the scaler's host, where it reads processes");
        }
        HostCpuTicks hostBefore = HostCpuTicks.read().orElse(null);
        // every worker without a recent reading takes its baseline now (a short-circuiting match left all but the first
        // out)
        long stale = found.values().stream()
                .filter(p -> fresh(p, hostBefore).isEmpty())
                .count();
        if (stale > 0) {
            // an interval to measure over, not a wait for a state: the CPU time's growth over it is the reading
            try {
                Thread.sleep(SHORTEST.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return new Result(null, "interrupted while reading the workers' CPU");
            }
        }
        int processors = Runtime.getRuntime().availableProcessors();
        HostCpuTicks host = HostCpuTicks.read().orElse(null);
        List<WorkerCpu> workers = new ArrayList<>();
        found.forEach((id, p) ->
                since(p, host).ifPresent(r -> workers.add(new WorkerCpu(id, r.cores(), processors, r.hostBusy()))));
        return new Result(
                workers.isEmpty() ? null : workers,
                workers.isEmpty()
                        ? "the workers' processes gave no CPU time"
                        : missing.isEmpty() ? null : "not on the scaler's host: " + missing);
    }

    /** The last reading of {@code p} if it is recent enough to rate against, else empty (and a reading is taken now). */
    private Optional<Reading> fresh(ProcessHandle p, HostCpuTicks host) {
        Reading last = previous.get(p.pid());
        long age = last == null ? Long.MAX_VALUE : System.nanoTime() - last.atNanos();
        if (age <= OLDEST.toNanos()) {
            return Optional.of(last);
        }
        reading(p, host).ifPresent(r -> previous.put(p.pid(), r));
        return Optional.empty();
    }

    /** Over one interval: the cores a process used, and the share of its host's time in use (NaN: not read). */
    private record Interval(double cores, double hostBusy) {}

    /** {@code p}'s interval since its last reading (at least {@link #SHORTEST} ago); records this reading for the next. */
    private Optional<Interval> since(ProcessHandle p, HostCpuTicks host) {
        Reading last = previous.get(p.pid());
        Optional<Reading> now = reading(p, host);
        if (last == null || now.isEmpty() || now.get().atNanos() - last.atNanos() < SHORTEST.toNanos()) {
            return Optional.empty();
        }
        Reading r = now.get();
        previous.put(p.pid(), r);
        double cores = Math.max(0, r.cpuNanos() - last.cpuNanos()) / (double) (r.atNanos() - last.atNanos());
        return Optional.of(new Interval(
                cores,
                r.host() == null || last.host() == null ? Double.NaN : r.host().busySince(last.host())));
    }

    /** {@code p}'s CPU time now, with the host's counters read once for every worker of the same call. */
    private static Optional<Reading> reading(ProcessHandle p, HostCpuTicks host) {
        return p.info().totalCpuDuration().map(cpu -> new Reading(System.nanoTime(), cpu.toNanos(), host));
    }

    /** Connect workers running here, by the {@code host:port} they advertise. */
    private static Map<String, ProcessHandle> localWorkers() {
        Map<String, ProcessHandle> workers = new TreeMap<>();
        ProcessHandle.allProcesses().forEach(p -> {
            String[] args = arguments(p);
            for (int i = 0; i + 1 < args.length; i++) {
                if (args[i].equals(CONNECT_MAIN)) {
                    advertised(Path.of(args[i + 1])).ifPresent(id -> workers.put(id, p));
                }
            }
        });
        return workers;
    }

    /**
     * A process's arguments. The JDK leaves them out on Linux when the command line passes a page (4 KiB), as a
     * Connect worker's classpath makes it (its command line then stops at the page, before the worker's class):
     * there they are read from {@code /proc/<pid>/cmdline}, NUL-separated. Empty when unreadable.
     */
    static String[] arguments(ProcessHandle p) {
        Optional<String[]> given = p.info().arguments();
        if (given.isPresent()) {
            return given.get();
        }
        try {
            String[] line = new String(
                            Files.readAllBytes(Path.of("/proc", String.valueOf(p.pid()), "cmdline")),
                            StandardCharsets.UTF_8)
                    .split("\0");
            return line.length > 1 ? Arrays.copyOfRange(line, 1, line.length) : new String[0];
        } catch (IOException | RuntimeException e) {
            return new String[0];
        }
    }

    /** {@code host:port} a worker's properties advertise, as Connect names the worker. */
    static Optional<String> advertised(Path properties) {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(properties, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
        String host = p.getProperty("rest.advertised.host.name");
        String port = p.getProperty("rest.advertised.port");
        String listener = p.getProperty("listeners", "").split(",")[0].trim();
        try {
            URI uri = listener.isEmpty() ? null : URI.create(listener);
            host = host != null ? host.trim() : uri == null ? null : uri.getHost();
            port = port != null ? port.trim() : uri == null || uri.getPort() < 0 ? null : String.valueOf(uri.getPort());
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        return host == null || port == null ? Optional.empty() : Optional.of(host + ":" + port);
    }
}
