package io.kcscale.lab.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kcscale.lab.experiment.DatagenSource;
import io.kcscale.local.LocalStack;
import io.kcscale.local.Offsets;
import io.kcscale.local.Ports;
import io.kcscale.local.ProxiedKafkaListener;
import io.kcscale.local.StackOptions;
import io.kcscale.scaler.autoscale.DecisionRecord;
import io.kcscale.scaler.autoscale.Lease;
import io.kcscale.scaler.autoscale.StoredPolicy;
import io.kcscale.scaler.connect.ConnectRestClient;
import io.kcscale.scaler.connect.ConnectorChange;
import io.kcscale.scaler.kafka.KafkaPolicyStore;
import io.kcscale.scaler.kafka.KafkaReadingsClient;
import io.kcscale.scaler.loop.LeaderLease;
import io.kcscale.scaler.model.SinkTarget;
import io.kcscale.scaler.poll.Poll;
import io.kcscale.scaler.poll.PollTimeoutException;
import io.kcscale.scaler.service.ScalerSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * The scaler under chaos, on a stack of its own: three replicas of one scaler cluster, each reaching Kafka through a
 * proxy of the benchmark's own and Connect through a gate that keeps its writes; an autoscale policy, and a load step
 * that makes the leader scale; and the policy's bounds pinned to a task count now and then, each a write the leader
 * must make once. On a seeded schedule, replicas are frozen past the lease, killed, restarted and cut from Kafka,
 * mostly the one that leads. Each write that reaches a gate is checked against the lease the state topic holds
 * in force at that moment; at the end, the decision log is reconciled with the writes Connect took: no decision
 * written twice, no write by a replica that did not lead, no write the log does not account for, the policy kept, and
 * a replica autoscaling again within {@value ScalerChaosResult#LEADER_LIMIT_SECONDS} s of every disruption.
 */
public final class ScalerChaosBenchmark {

    public static final int REPLICAS = 3;
    private static final String CLUSTER_ID = "chaos";
    private static final String SINK = StackOptions.SINK_CONNECTOR;
    private static final String AUTOSCALE = "/api/v1/connectors/" + SINK + "/autoscale";
    private static final String CONFIG = "/connectors/" + SINK + "/config";
    /** Each sink request waits this long, as against a remote cluster: one task writes some 130 records/s. */
    private static final int SINK_LATENCY_MS = 5;
    /** One task's load, then a step to what some three tasks write. */
    private static final double LOW_RATE = 60;

    private static final double HIGH_RATE = 300;
    private static final String POLICY = "{\"minTasks\":1,\"maxTasks\":4,\"targetLag\":2000}";
    /**
     * The task counts the policy's bounds pin, one after the other, spread over the window: each a count the leader
     * must write once, whoever leads then (what it learned of the load is learned again after every takeover).
     */
    private static final List<Integer> PINNED = List.of(2, 4, 1, 3, 2);

    private static final Duration STATE_TIMEOUT = Duration.ofSeconds(10);
    /** How long after a disruption the benchmark looks for a leader before it calls the disruption unrecovered. */
    private static final Duration LEADER_WAIT = Duration.ofSeconds(60);

    private static final Duration PROBE = Duration.ofMillis(250);
    /** The decisions a policy version's record keeps. */
    private static final int DECISIONS_KEPT = 50;

    private static final ObjectMapper JSON = new ObjectMapper();

    /** @param windowSeconds the time the disruptions fall in */
    public record Settings(Path home, Path dataDir, double windowSeconds) {}

    private final Settings settings;
    private final Consumer<String> progress;
    private final LocalStack stack;
    private final List<ScalerReplica> replicas = new ArrayList<>();
    private final List<String> nonLeaderWrites = Collections.synchronizedList(new ArrayList<>());
    private KafkaPolicyStore observer;
    /** The policy as last set. */
    private String policy = POLICY;
    /**
     * The decisions of every policy version set, by their time: the state topic keeps those of the version in force
     * only, so each version's are taken before the next is set.
     */
    private final Map<Long, DecisionRecord> decided = new HashMap<>();
    /** Writes before this time may have had their decision dropped from a version's list, which keeps the latest 50. */
    private long keptSince = Long.MIN_VALUE;

    private ScalerChaosBenchmark(Settings settings, Consumer<String> progress, LocalStack stack) {
        this.settings = settings;
        this.progress = progress;
        this.stack = stack;
    }

    /** Starts the stack and the replicas, runs {@code schedule}, reconciles, and stops it all whatever happens. */
    public static ScalerChaosResult run(Settings settings, ScalerChaosSchedule schedule, Consumer<String> progress) {
        long started = System.nanoTime();
        Ports ports = new Ports();
        List<ProxiedKafkaListener> listeners = new ArrayList<>();
        List<Integer> apiPorts = new ArrayList<>();
        try {
            for (int i = 0; i < REPLICAS; i++) {
                listeners.add(new ProxiedKafkaListener(
                        ports.resolve(0, "Kafka listener of replica " + i, "-"),
                        ports.resolve(0, "Kafka proxy of replica " + i, "-")));
                apiPorts.add(ports.resolve(0, "scaler replica " + i, "-"));
            }
        } finally {
            ports.release();
        }
        StackOptions options = StackOptions.builder(settings.home())
                .dataDir(settings.dataDir())
                .freePorts()
                .fresh(true)
                .workers(1)
                .sinkTasks(1)
                .ratePerSecond(LOW_RATE)
                .sinkLatencyMs(SINK_LATENCY_MS)
                .scaler(false)
                .commitIntervalMs(StackOptions.QUICK_COMMIT_INTERVAL_MS)
                .kafkaProxiedListeners(listeners)
                .build();
        try (LocalStack stack = LocalStack.start(options, progress)) {
            ScalerChaosBenchmark bench = new ScalerChaosBenchmark(settings, progress, stack);
            try {
                return bench.run(schedule, listeners, apiPorts, started);
            } catch (IOException e) {
                throw new IllegalStateException("cannot start a gate in front of Connect: " + e.getMessage(), e);
            } finally {
                bench.close();
            }
        }
    }

    private ScalerChaosResult run(
            ScalerChaosSchedule schedule, List<ProxiedKafkaListener> listeners, List<Integer> apiPorts, long started)
            throws IOException {
        for (int i = 0; i < REPLICAS; i++) {
            TcpProxy proxy = new TcpProxy(
                    listeners.get(i).advertisedPort(), listeners.get(i).port());
            int index = i;
            ConnectGate gate =
                    ConnectGate.start(stack.endpoints().connectUrl(), w -> checkWriter(replicas.get(index), w));
            replicas.add(new ScalerReplica(stack, "scaler-" + i, apiPorts.get(i), CLUSTER_ID, proxy, gate));
        }
        progress.accept("starting " + REPLICAS + " scaler replicas, each through a proxy to Kafka of its own");
        startAll();
        observer = new KafkaPolicyStore(stack.endpoints().kafkaBootstrap(), Map.of(), stateTopic(), STATE_TIMEOUT);
        observer.start();
        try (LeaderWatch watch = new LeaderWatch(replicas)) {
            watch.start();
            Poll.until(
                    "a replica to lead",
                    LEADER_WAIT,
                    PROBE,
                    () -> watch.timeline().leader());
            if (replicas.get(0).put(AUTOSCALE, POLICY) != 200) {
                throw new IllegalStateException(
                        "the policy was not taken: " + replicas.get(0).get(AUTOSCALE));
            }
            for (ScalerReplica r : replicas) {
                Poll.untilTrue(
                        r.name() + " to read the policy",
                        Duration.ofSeconds(30),
                        PROBE,
                        () -> policyAsSet(r),
                        () -> r.get(AUTOSCALE).toString());
            }
            long from = ConnectConfigWrites.end(stack);
            DatagenSource source = new DatagenSource(
                    new ConnectorChange(new ConnectRestClient(stack.endpoints().connectUrl()), Duration.ofMinutes(3)),
                    this::appended);
            progress.accept(String.format(
                    Locale.ROOT, "policy %s; the load steps from %.0f to %.0f records/s", POLICY, LOW_RATE, HIGH_RATE));
            source.at(HIGH_RATE);
            Random random = new Random(schedule.seed());
            long windowStart = System.currentTimeMillis();
            boolean stepDown = true;
            int pinned = 0;
            int pins = schedule.disruptions().size() < PINNED.size() ? 2 : PINNED.size();
            List<ScalerChaosResult.Outcome> outcomes = new ArrayList<>();
            for (ScalerChaosSchedule.Scheduled d : schedule.disruptions()) {
                if (stepDown && d.atSeconds() > schedule.windowSeconds() * 0.6) {
                    progress.accept(String.format(Locale.ROOT, "the load steps back to %.0f records/s", LOW_RATE));
                    source.at(LOW_RATE);
                    stepDown = false;
                }
                while (pinned < pins && d.atSeconds() > schedule.windowSeconds() * (pinned + 0.5) / pins) {
                    int tasks = PINNED.get(pinned++);
                    progress.accept("the policy's bounds pin " + tasks + " tasks");
                    setPolicy("{\"minTasks\":" + tasks + ",\"maxTasks\":" + tasks + ",\"targetLag\":2000}");
                }
                awaitUntil(windowStart + Math.round(d.atSeconds() * 1000));
                outcomes.add(disrupt(d, watch, random, windowStart));
            }
            awaitUntil(windowStart + Math.round(schedule.windowSeconds() * 1000));
            if (stepDown) {
                source.at(LOW_RATE);
            }
            long windowEnd = System.currentTimeMillis();
            progress.accept("reconciling the decision log with the writes Connect took");
            return reconcile(schedule, outcomes, watch, windowStart, windowEnd, from, started);
        }
    }

    /** Sets the policy through a replica that answers, and returns once every live replica has read it. */
    private void setPolicy(String body) {
        keepDecisions();
        ScalerReplica through = replicas.stream()
                .filter(r -> r.instance().isPresent())
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no replica answers to take the policy"));
        if (through.put(AUTOSCALE, body) != 200) {
            throw new IllegalStateException("the policy was not taken: " + through.get(AUTOSCALE));
        }
        policy = body;
        for (ScalerReplica r : replicas) {
            Poll.untilTrue(
                    r.name() + " to read the policy",
                    Duration.ofSeconds(30),
                    PROBE,
                    () -> policyAsSet(r),
                    () -> r.get(AUTOSCALE).toString());
        }
    }

    /** Reads the state topic to its end and keeps the decisions of the policy version in force. */
    private void keepDecisions() {
        if (observer == null) {
            return;
        }
        synchronized (observer) {
            observer.start();
            observer.policy(SINK)
                    .ifPresent(p ->
                            p.decisions().forEach(r -> decided.put(r.decision().atMillis(), r)));
        }
    }

    /** Launches every replica at once, then waits for each to answer: their starts overlap. */
    private void startAll() {
        ExecutorService starting = Executors.newFixedThreadPool(REPLICAS);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (ScalerReplica r : replicas) {
                done.add(starting.submit(r::start));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } catch (Exception e) {
            throw new IllegalStateException("a scaler replica did not start: " + e.getMessage(), e);
        } finally {
            starting.shutdownNow();
        }
    }

    private String stateTopic() {
        return ScalerSettings.fromValues(Map.of(
                        "connect.url", stack.endpoints().connectUrl().toString(),
                        "kafka.bootstrap.servers", stack.endpoints().kafkaBootstrap(),
                        "elasticsearch.url",
                                stack.endpoints().elasticsearchUrl().toString(),
                        "scaler.cluster.id", CLUSTER_ID))
                .stateTopic();
    }

    private long appended() {
        try (KafkaReadingsClient kafka =
                new KafkaReadingsClient(stack.endpoints().kafkaBootstrap(), Map.of(), Duration.ofSeconds(10))) {
            return Offsets.read(kafka, SinkTarget.consumerGroup(SINK), StackOptions.TOPIC)
                    .appended();
        }
    }

    /**
     * A write reaching a replica's gate: the state topic, read to its end now, must hold that replica's lease in
     * force. A write the replica's fence let through was sent while its lease held longer than the write may take,
     * and nobody claims before a lease has lapsed, so a correct scaler never fails this.
     */
    private void checkWriter(ScalerReplica replica, ConnectGate.Write write) {
        KafkaPolicyStore log = observer;
        if (log == null) {
            nonLeaderWrites.add(replica.name() + " wrote before the benchmark read the state topic: " + write.method()
                    + " " + write.path());
            return;
        }
        Optional<String> holder;
        synchronized (log) {
            log.start();
            holder = log.leader().map(Lease::leaderId);
        }
        if (!holder.equals(Optional.ofNullable(replica.instanceId()))) {
            nonLeaderWrites.add(String.format(
                    Locale.ROOT,
                    "%s (%s) sent %s %s while the lease in force was %s's",
                    replica.name(),
                    replica.instanceId(),
                    write.method(),
                    write.path(),
                    holder.orElse("nobody")));
        }
    }

    private boolean policyAsSet(ScalerReplica r) {
        JsonNode p = r.get(AUTOSCALE).path("policy");
        JsonNode set = json(policy);
        return p.path("minTasks").equals(set.path("minTasks"))
                && p.path("maxTasks").equals(set.path("maxTasks"))
                && p.path("targetLag").asLong() == set.path("targetLag").asLong();
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new IllegalStateException("not JSON: " + text, e);
        }
    }

    private ScalerChaosResult.Outcome disrupt(
            ScalerChaosSchedule.Scheduled d, LeaderWatch watch, Random random, long windowStart) {
        Optional<String> leader = watch.timeline().leader();
        List<ScalerReplica> followers = replicas.stream()
                .filter(r -> leader.isEmpty() || !leader.get().equals(r.instanceId()))
                .toList();
        ScalerReplica target = d.onLeader() && leader.isPresent()
                ? replicas.stream()
                        .filter(r -> leader.get().equals(r.instanceId()))
                        .findFirst()
                        .orElse(followers.get(0))
                : followers.get(random.nextInt(followers.size()));
        boolean wasLeader = leader.isPresent() && leader.get().equals(target.instanceId());
        String hit = target.instanceId();
        long at = System.currentTimeMillis();
        progress.accept(String.format(
                Locale.ROOT,
                "%.1f s: %s (%s): %s%s",
                (at - windowStart) / 1000.0,
                target.name(),
                wasLeader ? "the leader" : "a follower",
                d.disruption().description(),
                d.holdSeconds() > 0 ? String.format(Locale.ROOT, ", held %.1f s", d.holdSeconds()) : ""));
        Duration hold = Duration.ofMillis(Math.round(d.holdSeconds() * 1000));
        switch (d.disruption()) {
            case FREEZE -> {
                target.freeze();
                awaitUntil(at + hold.toMillis());
                target.thaw();
            }
            case KILL -> {
                target.kill();
                awaitUntil(at + hold.toMillis());
                target.start();
            }
            case RESTART -> {
                target.stop();
                target.start();
            }
            case CUT -> {
                target.kafka().cut();
                awaitUntil(at + hold.toMillis());
                target.kafka().restore();
            }
        }
        Double toLeader;
        try {
            toLeader = Poll.until(
                    "a replica to autoscale again",
                    Duration.ofMillis(Math.max(0, at + LEADER_WAIT.toMillis() - System.currentTimeMillis())),
                    PROBE,
                    () -> {
                        OptionalDouble s = watch.timeline().leaderAfter(at, wasLeader ? hit : "");
                        return s.isPresent() ? Optional.of(Math.round(s.getAsDouble() * 10) / 10.0) : Optional.empty();
                    });
        } catch (PollTimeoutException e) {
            toLeader = null;
        }
        progress.accept(
                toLeader == null
                        ? "  no replica autoscaled within " + LEADER_WAIT.toSeconds() + " s"
                        : String.format(Locale.ROOT, "  a replica autoscaled %.1f s after it began", toLeader));
        return new ScalerChaosResult.Outcome(
                Math.round((at - windowStart) / 100.0) / 10.0,
                d.disruption(),
                target.name(),
                wasLeader,
                d.holdSeconds(),
                toLeader);
    }

    /** Until the wall clock reaches {@code dueMillis}: a schedule's time to let pass, not a state to wait for. */
    private static void awaitUntil(long dueMillis) {
        long remaining = dueMillis - System.currentTimeMillis();
        if (remaining > 0) {
            Poll.untilTrue(
                    "the schedule's time",
                    Duration.ofMillis(remaining + 1000),
                    Duration.ofMillis(100),
                    () -> System.currentTimeMillis() >= dueMillis,
                    () -> "not yet");
        }
    }

    private ScalerChaosResult reconcile(
            ScalerChaosSchedule schedule,
            List<ScalerChaosResult.Outcome> outcomes,
            LeaderWatch watch,
            long windowStart,
            long windowEnd,
            long from,
            long started) {
        Poll.until(
                "a replica to lead after the window",
                LEADER_WAIT,
                PROBE,
                () -> watch.timeline().leader());
        LeaderTimeline timeline = watch.timeline();
        keepDecisions();
        StoredPolicy stored;
        synchronized (observer) {
            stored = observer.policy(SINK).orElse(null);
        }
        boolean kept = stored != null
                && stored.policy().maxTasks() == json(policy).path("maxTasks").asInt()
                && replicas.stream().allMatch(this::policyAsSet);
        List<ConnectGate.Write> writes = new ArrayList<>();
        for (ScalerReplica r : replicas) {
            r.connect().writes().stream()
                    .filter(w -> w.path().equals(CONFIG) && w.taken())
                    .forEach(writes::add);
        }
        writes.sort(Comparator.comparingLong(ConnectGate.Write::atMillis));
        List<DecisionRecord> decisions = decided.values().stream()
                .sorted(Comparator.comparingLong(
                                (DecisionRecord r) -> r.decision().atMillis())
                        .reversed())
                .toList();
        Map<Long, Integer> writesPerDecision = new HashMap<>();
        List<String> unaccounted = new ArrayList<>();
        int beforeLog = 0;
        for (ConnectGate.Write w : writes) {
            if (w.atMillis() < keptSince) {
                beforeLog++;
                continue;
            }
            Optional<DecisionRecord> by = decisions.stream()
                    .filter(r -> r.decision().scales() && r.decision().atMillis() <= w.atMillis())
                    .findFirst();
            String tasks = tasksMax(w.body());
            if (by.isEmpty()
                    || !String.valueOf(by.get().decision().toTasks()).equals(tasks)
                    || by.get().outcome().startsWith("not applied")) {
                unaccounted.add(String.format(
                        Locale.ROOT,
                        "%.1f s: %s tasks.max %s%s",
                        (w.atMillis() - windowStart) / 1000.0,
                        w.method(),
                        tasks,
                        by.map(r -> " (the decision before it: " + r.decision().fromTasks() + " -> "
                                        + r.decision().toTasks() + ", " + r.outcome() + ")")
                                .orElse("")));
                continue;
            }
            writesPerDecision.merge(by.get().decision().atMillis(), 1, Integer::sum);
        }
        int doubles =
                (int) writesPerDecision.values().stream().filter(n -> n > 1).count();
        int written = writesPerDecision.size();
        int applied = (int) decisions.stream()
                .filter(r -> r.outcome().startsWith("applied"))
                .count();
        List<String> log = new ArrayList<>();
        for (int i = decisions.size() - 1; i >= 0; i--) {
            DecisionRecord r = decisions.get(i);
            if (r.decision().scales()) {
                log.add(String.format(
                        Locale.ROOT,
                        "%.1f s: %d -> %d, %s",
                        (r.decision().atMillis() - windowStart) / 1000.0,
                        r.decision().fromTasks(),
                        r.decision().toTasks(),
                        r.outcome()));
            }
        }
        return new ScalerChaosResult(
                schedule.seed(),
                schedule.windowSeconds(),
                REPLICAS,
                policy,
                outcomes,
                log,
                writes.size(),
                ConnectConfigWrites.since(stack, SINK, from),
                beforeLog,
                written,
                applied,
                doubles,
                unaccounted,
                List.copyOf(nonLeaderWrites),
                timeline.takeovers(),
                Math.round(timeline.secondsWithoutLeader(windowStart, windowEnd) * 10) / 10.0,
                timeline.twoLeaders(),
                kept,
                Math.round((System.nanoTime() - started) / 1e8) / 10.0);
    }

    /** The tasks.max a config write sets: a PATCH of that key, or a PUT of the whole config. */
    private static String tasksMax(String body) {
        return json(body).path("tasks.max").asText();
    }

    /** The lease term the replicas state: what a freeze or a cut outlasts. */
    public static double leaseSeconds() {
        return LeaderLease.DURATION.toMillis() / 1000.0;
    }

    private void close() {
        for (ScalerReplica r : replicas) {
            r.close();
        }
        if (observer != null) {
            observer.close();
        }
    }
}
