package io.kcscale.scaler.checks;

import io.kcscale.scaler.model.PipelineSnapshot;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@code worker-capacity}: tasks run on Connect workers, and a worker whose CPU is spent only shares it
 * among more tasks. A worker is CPU-bound when its own process uses most of the processors it can get: that
 * refuses a scale-up onto it. A saturated host whose worker has CPU to spare is a warning, not a refusal:
 * the cores go to other processes (on a laptop, Kafka and Elasticsearch beside the worker; JIT compilers
 * warming up), which a move or a quieter moment frees, and a verdict that flips with the host's other load
 * would refuse a first scale at one moment and let it through the next. Several workers on one host are
 * judged each on its own process, against the processors it can get (its container's limit where it has one). A
 * worker no source read is said "unknown", never passed as ok. For a scale-up, the added tasks go where Connect balances them, to the
 * workers with the fewest tasks.
 */
public final class WorkerCapacityCheck implements Check {

    public static final String ID = "worker-capacity";
    /** A worker's process using this share of its host's processors has no CPU left to give a new task. */
    static final double BUSY_PROCESS_SHARE = 0.85;
    /**
     * A host whose processors were in use this share of the time is saturated: past it, runnable threads
     * queue for a core faster than work gets done, so an added task mostly waits.
     */
    static final double SATURATED_HOST_BUSY = 0.85;

    @Override
    public String id() {
        return ID;
    }

    @Override
    public Set<CheckInput> needs() {
        return EnumSet.of(CheckInput.WORKER_CPU);
    }

    @Override
    public Finding check(PipelineSnapshot snapshot, CheckSamples samples) {
        return judge(snapshot.tasks(), samples.tasksWanted(), samples.workerCpu(), samples.workerCpuUnavailable());
    }

    /**
     * The finding for going from {@code tasks} to {@code wanted} tasks, given the workers' CPU as read (null, with
     * {@code unavailable} saying why, when it was not): what {@link #check} judges, for callers that read the
     * workers themselves (an experiment, at each task count it measures).
     */
    public static Finding judge(
            List<PipelineSnapshot.Task> tasks, int wanted, List<WorkerCpu> read, String unavailable) {
        int now = tasks.size();
        Evidence e = new Evidence().put("tasks", now).put("tasksWanted", wanted);
        if (read == null || read.isEmpty()) {
            return finding(
                    Severity.INFO,
                    "the workers' CPU is unknown: " + (unavailable == null ? "nothing read it" : unavailable),
                    e,
                    READ_THEM);
        }
        Map<String, WorkerCpu> all = new TreeMap<>();
        read.forEach(w -> all.put(w.workerId(), w));
        Map<String, Object> workers = new LinkedHashMap<>();
        all.values().forEach(w -> workers.put(w.workerId(), evidence(w)));
        e.put("workers", workers);
        List<String> hosting = hostsOfAddedTasks(tasks, all.keySet(), wanted - now);
        e.put("workersHostingAddedTasks", hosting);
        Map<String, WorkerCpu> byId = new TreeMap<>();
        all.values().stream().filter(WorkerCpu::known).forEach(w -> byId.put(w.workerId(), w));
        List<WorkerCpu> unknown = all.values().stream().filter(w -> !w.known()).toList();
        List<WorkerCpu> boundHosts = hosting.stream()
                .map(byId::get)
                .filter(w -> w != null && cpuBound(w))
                .toList();
        if (!boundHosts.isEmpty()) {
            return finding(
                    Severity.CRITICAL,
                    now + " → " + wanted + " tasks: the added tasks would run on CPU-bound worker"
                            + (boundHosts.size() == 1 ? " " : "s ") + describe(boundHosts)
                            + "; more tasks there add little throughput:"
                            + " add workers",
                    e,
                    "Add Connect workers on hosts with CPU to spare (or cores) before tasks: tasks on a worker whose CPU is spent only share it. "
                            + "'predict workers' sizes the group from the measured CPU per record.");
        }
        List<WorkerCpu> bound =
                byId.values().stream().filter(WorkerCapacityCheck::cpuBound).toList();
        if (!bound.isEmpty()) {
            return finding(
                    Severity.WARNING,
                    "CPU-bound worker" + (bound.size() == 1 ? " " : "s ") + describe(bound)
                            + ": their tasks cannot speed up",
                    e,
                    "Move tasks to workers with CPU to spare (add workers), or give these hosts cores.");
        }
        List<WorkerCpu> crowdedHosts = hosting.stream()
                .map(byId::get)
                .filter(w -> w != null && hostSaturated(w))
                .toList();
        if (!crowdedHosts.isEmpty()) {
            return finding(
                    Severity.WARNING,
                    now + " → " + wanted + " tasks: the added tasks would share the saturated host of worker"
                            + (crowdedHosts.size() == 1 ? " " : "s ") + describe(crowdedHosts) + othersOn(crowdedHosts)
                            + "; expect less than a task's worth each",
                    e,
                    "The worker has CPU to spare; other processes take its host's cores. Scale, and measure the gain; for the"
                            + " full gain give the worker a host (or cores) of its own.");
        }
        if (!unknown.isEmpty()) {
            // never "ok" for a worker nobody read: the added tasks may land on it
            List<String> parts = new ArrayList<>();
            unknown.forEach(w -> parts.add(w.workerId() + " (" + w.unknown() + ")"));
            return finding(
                    Severity.INFO,
                    "the CPU of worker" + (unknown.size() == 1 ? " " : "s ") + String.join(", ", parts) + " is unknown",
                    e,
                    READ_THEM);
        }
        List<WorkerCpu> crowded = byId.values().stream()
                .filter(WorkerCapacityCheck::hostSaturated)
                .toList();
        if (!crowded.isEmpty()) {
            return finding(
                    Severity.INFO,
                    "the host of worker" + (crowded.size() == 1 ? " " : "s ") + describe(crowded)
                            + " is busy with other work" + othersOn(crowded),
                    e,
                    "Measured rates on that host move with its other work: measure again when it is quieter.");
        }
        WorkerCpu busiest = byId.values().stream()
                .max((a, b) -> Double.compare(a.processShare(), b.processShare()))
                .orElseThrow();
        return finding(
                Severity.OK,
                "every worker has CPU to spare (busiest: " + describe(List.of(busiest)) + ")",
                e,
                "Nothing to do.");
    }

    private static final String READ_THEM =
            "Point the scaler at the workers' CPU: --worker-metrics-url (each worker's JMX exporter)"
                    + " or --prometheus-url (a Prometheus that scrapes them); a worker on the scaler's own host is read from its process.";

    static boolean cpuBound(WorkerCpu w) {
        return w.processShare() >= BUSY_PROCESS_SHARE;
    }

    /** The cores in use on these hosts that are not their worker's: what the other processes take. */
    private static String othersOn(List<WorkerCpu> workers) {
        List<String> parts = new ArrayList<>();
        for (WorkerCpu w : workers) {
            parts.add(String.format(
                    Locale.ROOT, "%.2f", Math.max(0, w.hostBusy() * w.hostProcessors() - w.processCores())));
        }
        return " (other processes: " + String.join(", ", parts) + " cores)";
    }

    private static boolean hostSaturated(WorkerCpu w) {
        return w.hostBusyRead() && w.hostBusy() >= SATURATED_HOST_BUSY;
    }

    /** A worker's figures; the host's busy time and the worker's share of it only where the host gave them. */
    private static Map<String, Object> evidence(WorkerCpu w) {
        if (!w.known()) {
            return new Evidence()
                    .put("source", "unknown")
                    .put("unknown", w.unknown())
                    .map();
        }
        boolean read = w.hostBusyRead();
        return new Evidence()
                .put("source", w.source().label())
                .ratio("processCores", w.processCores())
                .put("hostProcessors", w.hostProcessors())
                .ratio("hostBusy", read ? w.hostBusy() : null)
                .ratio("shareOfHostUse", read ? w.shareOfHostUse() : null)
                .put("cpuBound", cpuBound(w))
                .map();
    }

    /**
     * The workers the {@code added} tasks would land on: Connect balances tasks over its workers, so each new
     * task goes to a worker with the fewest tasks (the lowest id among equals). Empty when none are added.
     */
    static List<String> hostsOfAddedTasks(List<PipelineSnapshot.Task> tasks, Iterable<String> knownWorkers, int added) {
        Map<String, Integer> load = new TreeMap<>();
        knownWorkers.forEach(w -> load.put(w, 0));
        tasks.stream().filter(t -> t.workerId() != null).forEach(t -> load.merge(t.workerId(), 1, Integer::sum));
        TreeSet<String> hosts = new TreeSet<>();
        for (int i = 0; i < added && !load.isEmpty(); i++) {
            String least = load.entrySet().stream()
                    .min(Map.Entry.comparingByValue())
                    .orElseThrow()
                    .getKey();
            load.merge(least, 1, Integer::sum);
            hosts.add(least);
        }
        return new ArrayList<>(hosts);
    }

    private static String describe(List<WorkerCpu> workers) {
        List<String> parts = new ArrayList<>();
        for (WorkerCpu w : workers) {
            parts.add(String.format(
                    Locale.ROOT,
                    "%s (process %.2f of %d cores, %s; from %s)",
                    w.workerId(),
                    w.processCores(),
                    w.hostProcessors(),
                    hostBusy(w),
                    w.source().label()));
        }
        return String.join(", ", parts);
    }

    /** "host 91% busy", or that it was not read: for a finding's title and an experiment's table. */
    public static String hostBusy(WorkerCpu w) {
        return w.hostBusyRead()
                ? String.format(Locale.ROOT, "host %.0f%% busy", 100 * w.hostBusy())
                : "host's busy time not read";
    }

    private static Finding finding(Severity severity, String title, Evidence evidence, String advice) {
        return new Finding(ID, severity, title, evidence.map(), advice);
    }
}
