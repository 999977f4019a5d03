package io.kcscale.scaler.service;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

import javax.net.ssl.SSLContext;

import io.kcscale.scaler.act.ConnectTasksMaxWriter;
import io.kcscale.scaler.access.TlsTrust;
import io.kcscale.scaler.act.ScaleAction;
import io.kcscale.scaler.act.TasksMaxWriter;
import io.kcscale.scaler.autoscale.AutoscaleLoop;
import io.kcscale.scaler.observe.CheckObserver;
import io.kcscale.scaler.observe.WorkerCpuSources;
import io.kcscale.scaler.observe.KeySampling;
import io.kcscale.scaler.observe.PipelineObserver;
import io.kcscale.scaler.observe.PipelineWatcher;
import io.kcscale.scaler.connect.Backoff;
import io.kcscale.scaler.connect.ConnectRestClient;
import io.kcscale.scaler.connect.HttpWorkerProbe;
import io.kcscale.scaler.connect.WorkerProbe;
import io.kcscale.scaler.elasticsearch.ElasticsearchConnection;
import io.kcscale.scaler.elasticsearch.ElasticsearchObserver;
import io.kcscale.scaler.kafka.DeadLetterReasons;
import io.kcscale.scaler.kafka.KafkaLeadership;
import io.kcscale.scaler.kafka.KafkaObserver;
import io.kcscale.scaler.kafka.KafkaPolicyStore;
import io.kcscale.scaler.kafka.KafkaUnavailableException;
import io.kcscale.scaler.kafka.KeySampler;
import io.kcscale.scaler.kubernetes.KafkaConnectorResources;
import io.kcscale.scaler.kubernetes.StrimziTasksMaxWriter;

/** The scaler connected to one pipeline: its clients, the watcher that samples it, and the scale action. */
public final class ScalerService implements AutoCloseable {

    /** Per request: a system slower than this counts as unreachable for that sample. */
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(3);
    /**
     * A worker that does not answer within this, in two rounds running, is taken for dead: its process answers a GET /
     * in milliseconds, even loaded, and the probe runs in every sampling round (every 2 s), so it must stay short.
     */
    private static final Duration WORKER_PROBE_TIMEOUT = Duration.ofSeconds(2);
    /** A dead letter's reason is read inside a sampling round (at most every 30 s per topic), so briefly. */
    private static final Duration DEAD_LETTER_READ_TIMEOUT = Duration.ofSeconds(1);
    /** Topics sampled at once, and waiting: each sample is a consumer reading for seconds. */
    private static final int SAMPLE_THREADS = 2;
    private static final int SAMPLE_QUEUE = 4;
    /** Writing to the state topic and reading it back; reading it whole at start. */
    private static final Duration STATE_TIMEOUT = Duration.ofSeconds(10);
    /** A KafkaConnector that others edit (Strimzi writes its status, people its config) is patched again a few times. */
    private static final Backoff KUBERNETES_CONFLICT_BACKOFF = new Backoff(5, Duration.ofMillis(100), Duration.ofSeconds(1));

    private final ScalerSettings settings;
    private final ConnectRestClient connect;
    private final KafkaObserver kafka;
    private final ElasticsearchConnection elasticsearchConnection;
    private final ElasticsearchObserver elasticsearch;
    private final PipelineWatcher watcher;
    private final KeySampling keySampling;
    private final ScalingChecks checks;
    private final ScaleAction scaleAction;
    private final ScalerMetrics metrics;
    private final ScalerCostMetrics cost = new ScalerCostMetrics();
    private final KafkaPolicyStore policies;
    private final KafkaLeadership leadership;
    private final AutoscaleLoop autoscaler;
    private final Optional<KafkaConnectorResources> kubernetes;

    public ScalerService(ScalerSettings settings) {
        this.settings = settings;
        SSLContext tls = settings.truststore().map(t -> TlsTrust.fromTruststore(t, settings.truststorePassword())).orElse(null);
        this.connect = new ConnectRestClient(settings.connectUrl(), REQUEST_TIMEOUT, Backoff.DEFAULT,
                settings.connectAuthorization(), tls);
        Map<String, Object> kafkaProps = new HashMap<>(settings.kafkaProperties());
        this.kafka = new KafkaObserver(settings.bootstrapServers(), kafkaProps, REQUEST_TIMEOUT);
        this.elasticsearchConnection = new ElasticsearchConnection(settings.elasticsearchUrl(),
                (int) REQUEST_TIMEOUT.toMillis(), settings.elasticsearchAuthorization(), tls);
        this.elasticsearch = new ElasticsearchObserver(elasticsearchConnection);
        // the watcher's own reads must not stall on Connect's rebalance back-off: a 409 is one failed sample
        WorkerProbe workerProbe = new HttpWorkerProbe(settings.connectUrl().getScheme(), WORKER_PROBE_TIMEOUT, tls);
        ConnectRestClient watcherConnect = new ConnectRestClient(settings.connectUrl(), REQUEST_TIMEOUT,
                new Backoff(1, Duration.ZERO, Duration.ZERO), settings.connectAuthorization(), tls);
        this.watcher = new PipelineWatcher(watcherConnect, new PipelineObserver(kafka, elasticsearch, settings.indexes(),
                new DeadLetterReasons(settings.bootstrapServers(), kafkaProps, DEAD_LETTER_READ_TIMEOUT)::latest, System::currentTimeMillis),
                workerProbe, settings.sampleInterval(), settings.window(), cost);
        // beyond its time budget a sample looks up the partitions, their end and beginning offsets, then closes
        this.keySampling = new KeySampling(new KeySampler(settings.bootstrapServers(), kafkaProps, REQUEST_TIMEOUT)::sample,
                SAMPLE_THREADS, SAMPLE_QUEUE, REQUEST_TIMEOUT.multipliedBy(4));
        this.checks = new ScalingChecks(new CheckObserver(connect, kafka, keySampling, watcher, settings.connectWorkerConfig(), settings.indexes(),
                settings.rebalanceDelay(), new WorkerCpuSources(settings.workerCpu())),
                watcher, System::currentTimeMillis);
        this.kubernetes = settings.kubernetes().map(k -> KafkaConnectorResources.connect(k, REQUEST_TIMEOUT));
        TasksMaxWriter writer = new ConnectTasksMaxWriter(connect);
        if (kubernetes.isPresent()) {
            writer = new StrimziTasksMaxWriter(kubernetes.get(), writer, KUBERNETES_CONFLICT_BACKOFF);
        }
        this.scaleAction = new ScaleAction(connect, writer, kafka::partitionCount, index -> elasticsearch.indexStats(index).indexTotal(), settings.indexes(),
                watcher::snapshot, checks, workerProbe, settings.maxTasks(), settings.convergeTimeout(), System::currentTimeMillis);
        this.policies = new KafkaPolicyStore(settings.bootstrapServers(), kafkaProps, settings.stateTopic(), STATE_TIMEOUT);
        this.leadership = new KafkaLeadership(settings.bootstrapServers(), kafkaProps, settings.stateTopic(), settings.leaderGroup(),
                newInstanceId(), REQUEST_TIMEOUT);
        this.autoscaler = new AutoscaleLoop(watcher::snapshot, scaleAction::scale, policies, leadership, checks::blockingFindings,
                settings.autoscaleInterval().toMillis(), settings.rebalanceDelay(), System::currentTimeMillis);
        this.metrics = new ScalerMetrics(watcher, autoscaler::latestRecommendedTasks, cost);
    }

    /** The host's name (a pod's), made unique: a replica restarted on the same host is another member. */
    private static String newInstanceId() {
        String host = Optional.ofNullable(System.getenv("HOSTNAME")).filter(h -> !h.isBlank()).orElse("scaler");
        return host + "-" + HexFormat.of().toHexDigits((short) ThreadLocalRandom.current().nextInt());
    }

    /**
     * Starts sampling, reads the state topic to its end, joins the leadership group and starts autoscaling; returns
     * what the first look at each system found wrong, one line each. Without the state topic it does not autoscale.
     */
    public List<String> start() {
        List<String> problems = new ArrayList<>(StartupCheck.problems(kafka, elasticsearch, watcher));
        watcher.start();
        try {
            policies.start();
        } catch (KafkaUnavailableException e) {
            // when Kafka itself refused the scaler, its line above says what to fix: this one says what that costs
            boolean kafkaSaid = problems.stream().anyMatch(line -> line.startsWith("Kafka "));
            problems.add("autoscaling is off until the scaler is restarted: it keeps its policies in Kafka's topic "
                    + settings.stateTopic() + (kafkaSaid ? "" : ", which it could not read: " + e.getMessage()));
            return problems;
        }
        try {
            LegacyPolicyFile.moveInto(settings.stateDir(), policies);
        } catch (UncheckedIOException | KafkaUnavailableException e) {
            // an unreadable old file must not keep the scaler from serving, as it once did
            problems.add(e.getMessage());
        }
        leadership.start();
        autoscaler.start();
        return problems;
    }

    /** This replica's id among the scaler's replicas. */
    public String instanceId() {
        return leadership.instanceId();
    }

    public AutoscaleLoop autoscaler() {
        return autoscaler;
    }

    public ScalerSettings settings() {
        return settings;
    }

    public PipelineWatcher watcher() {
        return watcher;
    }

    public ScalingChecks checks() {
        return checks;
    }

    public ScaleAction scaleAction() {
        return scaleAction;
    }

    public ConnectRestClient connect() {
        return connect;
    }

    public ScalerMetrics metrics() {
        return metrics;
    }

    @Override
    public void close() throws IOException {
        autoscaler.close();
        leadership.close();
        policies.close();
        watcher.close();
        keySampling.close();
        kafka.close();
        elasticsearchConnection.close();
        kubernetes.ifPresent(KafkaConnectorResources::close);
    }
}
