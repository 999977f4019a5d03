package io.kcscale.scaler.service;

import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import javax.net.ssl.SSLContext;

import io.kcscale.scaler.access.TlsTrust;
import io.kcscale.scaler.act.ScaleAction;
import io.kcscale.scaler.autoscale.AutoscaleLoop;
import io.kcscale.scaler.autoscale.PolicyStore;
import io.kcscale.scaler.observe.CheckObserver;
import io.kcscale.scaler.observe.PipelineObserver;
import io.kcscale.scaler.observe.PipelineWatcher;
import io.kcscale.scaler.connect.Backoff;
import io.kcscale.scaler.connect.ConnectRestClient;
import io.kcscale.scaler.elasticsearch.ElasticsearchConnection;
import io.kcscale.scaler.elasticsearch.ElasticsearchObserver;
import io.kcscale.scaler.kafka.KafkaObserver;
import io.kcscale.scaler.kafka.KeySampler;

/** The scaler connected to one pipeline: its clients, the watcher that samples it, and the scale action. */
public final class ScalerService implements AutoCloseable {

    /** Per request: a system slower than this counts as unreachable for that sample. */
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(3);

    private final ScalerSettings settings;
    private final ConnectRestClient connect;
    private final KafkaObserver kafka;
    private final ElasticsearchConnection elasticsearchConnection;
    private final ElasticsearchObserver elasticsearch;
    private final PipelineWatcher watcher;
    private final ScalingChecks checks;
    private final ScaleAction scaleAction;
    private final ScalerMetrics metrics;
    private final AutoscaleLoop autoscaler;

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
        ConnectRestClient watcherConnect = new ConnectRestClient(settings.connectUrl(), REQUEST_TIMEOUT,
                new Backoff(1, Duration.ZERO, Duration.ZERO), settings.connectAuthorization(), tls);
        this.watcher = new PipelineWatcher(watcherConnect, new PipelineObserver(kafka, elasticsearch, System::currentTimeMillis),
                settings.sampleInterval(), settings.window());
        this.checks = new ScalingChecks(new CheckObserver(connect, kafka,
                new KeySampler(settings.bootstrapServers(), kafkaProps, REQUEST_TIMEOUT), watcher, settings.connectWorkerConfig()),
                watcher, System::currentTimeMillis);
        this.scaleAction = new ScaleAction(connect, kafka::partitionCount, index -> elasticsearch.indexStats(index).indexTotal(),
                watcher::snapshot, checks, settings.maxTasks(), settings.convergeTimeout(), System::currentTimeMillis);
        this.metrics = new ScalerMetrics(watcher);
        this.autoscaler = new AutoscaleLoop(watcher, scaleAction, new PolicyStore(settings.stateDir()),
                checks::blockingFindings, settings.autoscaleInterval().toMillis(), System::currentTimeMillis);
    }

    /** Starts sampling and autoscaling; returns what the first look at each system found wrong, one line each. */
    public List<String> start() {
        List<String> problems = StartupCheck.problems(kafka, elasticsearch, watcher);
        watcher.start();
        autoscaler.start();
        return problems;
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
        watcher.close();
        kafka.close();
        elasticsearchConnection.close();
    }
}
