package io.kcscale.scaler.service;

import io.kcscale.scaler.access.TlsTrust;
import io.kcscale.scaler.autoscale.AutoscaleEvaluator;
import io.kcscale.scaler.checks.Checks;
import io.kcscale.scaler.connect.Backoff;
import io.kcscale.scaler.connect.ConnectRestClient;
import io.kcscale.scaler.connect.ConnectTasksMaxWriter;
import io.kcscale.scaler.connect.HttpWorkerProbe;
import io.kcscale.scaler.elasticsearch.ElasticsearchConnection;
import io.kcscale.scaler.elasticsearch.ElasticsearchReadingsClient;
import io.kcscale.scaler.kafka.DeadLetterReasons;
import io.kcscale.scaler.kafka.KafkaLeadership;
import io.kcscale.scaler.kafka.KafkaPolicyStore;
import io.kcscale.scaler.kafka.KafkaReadingsClient;
import io.kcscale.scaler.kafka.KafkaUnavailableException;
import io.kcscale.scaler.kafka.KeySampler;
import io.kcscale.scaler.kafka.RecordTimestampReader;
import io.kcscale.scaler.kubernetes.KafkaConnectorResources;
import io.kcscale.scaler.kubernetes.StrimziTasksMaxWriter;
import io.kcscale.scaler.loop.AutoscaleLoop;
import io.kcscale.scaler.loop.LeaderLease;
import io.kcscale.scaler.observe.CheckObserver;
import io.kcscale.scaler.observe.KeySampling;
import io.kcscale.scaler.observe.PipelineObserver;
import io.kcscale.scaler.observe.PipelineWatcher;
import io.kcscale.scaler.observe.TaskMetricsSources;
import io.kcscale.scaler.observe.WorkerCpuSources;
import io.kcscale.scaler.ports.TasksMaxWriter;
import io.kcscale.scaler.ports.WorkerProbe;
import io.kcscale.scaler.scale.ScaleAction;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The scaler connected to one pipeline: its adapters, the parts built on them, and their start and stop. */
public final class ScalerService implements AutoCloseable {

    /** Per request: a system slower than this counts as unreachable for that sample. */
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(3);
    /**
     * A worker that does not answer within this, in two rounds running, is taken for dead: its process answers a GET /
     * in milliseconds, even loaded, and the probe runs in every sampling round (every 2 s), so it must stay short.
     */
    private static final Duration WORKER_PROBE_TIMEOUT = Duration.ofSeconds(2);
    /** A cross-check of the lag's age reads one record per partition, on a user's request. */
    private static final Duration RECORD_READ_TIMEOUT = Duration.ofSeconds(5);
    /** A dead letter's reason is read inside a sampling round (at most every 30 s per topic), so briefly. */
    private static final Duration DEAD_LETTER_READ_TIMEOUT = Duration.ofSeconds(1);
    /** Topics sampled at once, and waiting: each sample is a consumer reading for seconds. */
    private static final int SAMPLE_THREADS = 2;

    private static final int SAMPLE_QUEUE = 4;
    /** Writing to the state topic and reading it back; reading it whole at start. */
    private static final Duration STATE_TIMEOUT = Duration.ofSeconds(10);
    /** The state topic tried again when Kafka refused it at start: soon, then once a minute, for about a day. */
    private static final Backoff STATE_RETRY = new Backoff(1_440, Duration.ofSeconds(1), Duration.ofMinutes(1));

    private static final Logger LOG = LoggerFactory.getLogger(ScalerService.class);
    /** A KafkaConnector that others edit (Strimzi writes its status, people its config) is patched again a few times. */
    private static final Backoff KUBERNETES_CONFLICT_BACKOFF =
            new Backoff(5, Duration.ofMillis(100), Duration.ofSeconds(1));

    private final ScalerSettings settings;
    private final KafkaReadingsClient kafka;
    private final ElasticsearchConnection elasticsearchConnection;
    private final ElasticsearchReadingsClient elasticsearch;
    private final PipelineWatcher watcher;
    private final KeySampling keySampling;
    private final ScalingChecks checks;
    private final ScaleAction scaleAction;
    private final ScalerCostMetrics cost = new ScalerCostMetrics();
    private final KafkaPolicyStore policies;
    private final KafkaLeadership leadership;
    private final LeaderLease lease;
    private final AutoscaleLoop autoscaler;
    private final Optional<KafkaConnectorResources> kubernetes;
    private final Scaler scaler;
    private final ScheduledExecutorService stateRetry = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "kcscale-state-retry");
        t.setDaemon(true);
        return t;
    });
    /** Why autoscaling is off, while the state topic cannot be read; null once it is on. */
    private volatile String autoscalingOff;

    /**
     * The composition root: builds each system's adapter once, here, and hands the observers, the scale action, the
     * autoscaler and the {@link Scaler} facade the ports they use through their constructors.
     */
    public ScalerService(ScalerSettings settings) {
        this.settings = settings;
        // the adapters
        SSLContext tls = settings.truststore()
                .map(t -> TlsTrust.fromTruststore(t, settings.truststorePassword()))
                .orElse(null);
        ConnectRestClient connect = new ConnectRestClient(
                settings.connectUrl(), REQUEST_TIMEOUT, Backoff.DEFAULT, settings.connectAuthorization(), tls);
        // the watcher's own reads must not stall on Connect's rebalance back-off: a 409 is one failed sample
        ConnectRestClient watcherConnect = new ConnectRestClient(
                settings.connectUrl(),
                REQUEST_TIMEOUT,
                new Backoff(1, Duration.ZERO, Duration.ZERO),
                settings.connectAuthorization(),
                tls);
        WorkerProbe workerProbe = new HttpWorkerProbe(settings.connectUrl().getScheme(), WORKER_PROBE_TIMEOUT, tls);
        Map<String, Object> kafkaProps = new HashMap<>(settings.kafkaProperties());
        this.kafka = new KafkaReadingsClient(settings.bootstrapServers(), kafkaProps, REQUEST_TIMEOUT);
        DeadLetterReasons deadLetterReasons =
                new DeadLetterReasons(settings.bootstrapServers(), kafkaProps, DEAD_LETTER_READ_TIMEOUT);
        KeySampler keySampler = new KeySampler(settings.bootstrapServers(), kafkaProps, REQUEST_TIMEOUT);
        this.elasticsearchConnection = new ElasticsearchConnection(
                settings.elasticsearchUrl(),
                (int) REQUEST_TIMEOUT.toMillis(),
                settings.elasticsearchAuthorization(),
                tls);
        this.elasticsearch = new ElasticsearchReadingsClient(elasticsearchConnection);
        this.kubernetes = settings.kubernetes().map(k -> KafkaConnectorResources.connect(k, REQUEST_TIMEOUT));
        TasksMaxWriter connectWriter = new ConnectTasksMaxWriter(connect);
        TasksMaxWriter writer = kubernetes
                .<TasksMaxWriter>map(k -> new StrimziTasksMaxWriter(k, connectWriter, KUBERNETES_CONFLICT_BACKOFF))
                .orElse(connectWriter);
        this.policies =
                new KafkaPolicyStore(settings.bootstrapServers(), kafkaProps, settings.stateTopic(), STATE_TIMEOUT);
        this.leadership = new KafkaLeadership(
                settings.bootstrapServers(),
                kafkaProps,
                settings.stateTopic(),
                settings.leaderGroup(),
                newInstanceId(),
                REQUEST_TIMEOUT);
        this.lease = new LeaderLease(
                leadership.instanceId(), leadership::nominated, policies, LeaderLease.DURATION, System::nanoTime);

        // the parts, each handed its ports
        this.watcher = new PipelineWatcher(
                watcherConnect,
                new PipelineObserver(
                        kafka,
                        elasticsearch,
                        settings.indexes(),
                        deadLetterReasons::latest,
                        new TaskMetricsSources(settings.workerCpu()),
                        System::currentTimeMillis),
                workerProbe,
                settings.sampleInterval(),
                settings.window(),
                cost);
        // beyond its time budget a sample looks up the partitions, their end and beginning offsets, then closes
        this.keySampling = new KeySampling(
                (topic, budget) -> keySampler.sample(topic, budget.records(), budget.time()),
                SAMPLE_THREADS,
                SAMPLE_QUEUE,
                REQUEST_TIMEOUT.multipliedBy(4));
        this.checks = new ScalingChecks(
                Checks.ALL,
                new CheckObserver(
                        connect,
                        kafka,
                        keySampling,
                        watcher,
                        new WorkerCpuSources(settings.workerCpu()),
                        settings.connectWorkerConfig(),
                        settings.indexes(),
                        settings.rebalanceDelay()),
                watcher,
                System::currentTimeMillis);
        this.scaleAction = new ScaleAction(
                connect,
                writer,
                kafka::partitionCount,
                elasticsearch::indexTotal,
                settings.indexes(),
                watcher::snapshot,
                checks,
                workerProbe,
                settings.taskCap(),
                settings.convergeTimeout(),
                System::currentTimeMillis);
        this.autoscaler = new AutoscaleLoop(
                watcher::snapshot,
                scaleAction::scale,
                policies,
                lease,
                checks::blockingFindings,
                settings.autoscaleInterval().toMillis(),
                settings.rebalanceDelay(),
                System::currentTimeMillis);
        this.scaler = new Scaler(
                watcher,
                connect,
                checks,
                scaleAction,
                autoscaler,
                new AutoscaleEvaluator(settings.rebalanceDelay()),
                new ScalerMetrics(
                        watcher, autoscaler::latestRecommendedTasks, autoscaler::latestRecommendedWorkers, cost),
                leadership.instanceId(),
                this::autoscalingOff,
                policies::stateTopic,
                new RecordTimestampReader(settings.bootstrapServers(), kafkaProps, RECORD_READ_TIMEOUT),
                settings.token());
    }

    /** The host's name (a pod's), made unique: a replica restarted on the same host is another member. */
    private static String newInstanceId() {
        String host = Optional.ofNullable(System.getenv("HOSTNAME"))
                .filter(h -> !h.isBlank())
                .orElse("scaler");
        return host + "-"
                + HexFormat.of().toHexDigits((short) ThreadLocalRandom.current().nextInt());
    }

    /**
     * Starts sampling, reads the state topic to its end, joins the leadership group and starts autoscaling; returns
     * what the first look at each system found wrong, one line each. Without the state topic it serves all else and
     * opens the topic in the background, with back-off, autoscaling once it is open.
     */
    public List<String> start() {
        List<StartupCheck.Problem> found = StartupCheck.problems(kafka, elasticsearch, watcher);
        List<String> problems =
                new ArrayList<>(found.stream().map(StartupCheck.Problem::line).toList());
        watcher.start();
        try {
            openState(problems::add);
        } catch (KafkaUnavailableException e) {
            // when Kafka itself refused the scaler, its line above says what to fix: this one says what that costs
            boolean kafkaSaid = found.stream().anyMatch(p -> p.source() == StartupCheck.Source.KAFKA);
            autoscalingOff = "autoscaling is off until the scaler reads its policies from Kafka's topic "
                    + settings.stateTopic() + ", which it tries again in the background"
                    + (kafkaSaid ? "" : "; it could not: " + e.getMessage());
            problems.add(autoscalingOff);
            retryState(1);
        }
        return problems;
    }

    /**
     * Reads the state topic, moves an old policy file into it, then joins the leadership group, keeps the lease and
     * autoscales.
     */
    private void openState(Consumer<String> problems) {
        policies.start();
        try {
            LegacyPolicyFile.moveInto(settings.stateDir(), policies);
        } catch (UncheckedIOException | KafkaUnavailableException e) {
            // an unreadable old file must not keep the scaler from serving, as it once did
            problems.accept(e.getMessage());
        }
        leadership.start();
        lease.start();
        autoscaler.start();
        autoscalingOff = null;
    }

    /** Tries the state topic again after the back-off's wait for {@code attempt}; gives up, saying so, past its last. */
    private void retryState(int attempt) {
        if (attempt >= STATE_RETRY.maxAttempts()) {
            autoscalingOff = "autoscaling is off until the scaler is restarted: after " + attempt
                    + " tries it could not read its" + " policies from Kafka's topic " + settings.stateTopic();
            LOG.error(autoscalingOff);
            return;
        }
        stateRetry.schedule(
                () -> {
                    try {
                        openState(line -> LOG.warn(line));
                        LOG.info("read the state topic {}: autoscaling is on", settings.stateTopic());
                    } catch (KafkaUnavailableException e) {
                        autoscalingOff = "autoscaling is off until the scaler reads its policies from Kafka's topic "
                                + settings.stateTopic() + ", which it tries again in the background; the last try: "
                                + e.getMessage();
                        retryState(attempt + 1);
                    }
                },
                STATE_RETRY.delayAfter(attempt).toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /** Why this replica does not autoscale (it cannot read the state topic), or empty when it can. */
    public Optional<String> autoscalingOff() {
        return Optional.ofNullable(autoscalingOff);
    }

    /** This replica's id among the scaler's replicas. */
    public String instanceId() {
        return leadership.instanceId();
    }

    public ScalerSettings settings() {
        return settings;
    }

    /** The facade the API, the lab and the tests call: the one way into the service's parts. */
    public Scaler scaler() {
        return scaler;
    }

    @Override
    public void close() throws IOException {
        stateRetry.shutdownNow();
        autoscaler.close();
        // released before this replica leaves the group, so that the replica the group nominates next claims at once
        lease.close();
        leadership.close();
        policies.close();
        watcher.close();
        keySampling.close();
        kafka.close();
        elasticsearchConnection.close();
        kubernetes.ifPresent(KafkaConnectorResources::close);
    }
}
