package io.kcscale.tests;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import io.kcscale.local.LocalStack;
import io.kcscale.scaler.api.ApiServer;
import io.kcscale.scaler.service.ScalerService;
import io.kcscale.scaler.service.ScalerSettings;

/** A scaler service of the test's own, in its JVM, on the stack's Connect, Kafka and Elasticsearch and a free loopback port. */
final class InProcessScaler implements AutoCloseable {

    private final ScalerService service;
    private final ApiServer api;
    final ScalerHttp http;

    private InProcessScaler(ScalerService service, ApiServer api) {
        this.service = service;
        this.api = api;
        this.http = new ScalerHttp(URI.create("http://127.0.0.1:" + api.address().getPort()));
    }

    /** @param settings the scaler's settings beyond the stack's addresses and a state directory of its own */
    static InProcessScaler start(LocalStack stack, Map<String, String> settings) throws Exception {
        Map<String, String> values = new HashMap<>(Map.of(
                "connect.url", stack.endpoints().connectUrl().toString(),
                "kafka.bootstrap.servers", stack.endpoints().kafkaBootstrap(),
                "elasticsearch.url", stack.endpoints().elasticsearchUrl().toString(),
                "state.dir", Files.createTempDirectory("kcscale-scaler-state").toString(),
                // a scaler of its own: one sharing an id with the stack's would share its policies and leadership
                "scaler.cluster.id", "in-process-" + Long.toHexString(System.nanoTime())));
        values.putAll(settings);
        ScalerService service = new ScalerService(ScalerSettings.fromValues(values));
        service.start();
        try {
            return new InProcessScaler(service, ApiServer.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                    Optional.of(service)));
        } catch (Exception | Error e) {
            service.close();
            throw e;
        }
    }

    @Override
    public void close() throws Exception {
        try {
            api.close();
        } finally {
            service.close();
        }
    }
}
