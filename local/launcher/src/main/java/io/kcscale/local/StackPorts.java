package io.kcscale.local;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The ports one stack uses, every one known free before anything starts, so a refused start has
 * changed nothing. {@code metrics} is empty without {@code --metrics}; {@code prometheus} is null
 * without {@code --prometheus}; {@code sinkProxy} (any free port) is null without {@code --sink-latency-ms}.
 */
public record StackPorts(
        int kafka,
        int controller,
        int elasticsearch,
        int elasticsearchTransport,
        int scaler,
        List<Integer> connect,
        List<Integer> metrics,
        Integer prometheus,
        Integer sinkProxy) {

    /** Every component binds the loopback address: the local stack serves this machine only. */
    public static final String HOST = "127.0.0.1";

    /** @throws IllegalArgumentException naming the taken port and the flag that moves it */
    static StackPorts resolve(StackOptions options) {
        Ports ports = new Ports();
        try {
            int kafka = ports.resolve(options.kafkaPort(), "Kafka", "--kafka-port");
            int controller = ports.resolve(options.controllerPort(), "Kafka controller", "--controller-port");
            int elasticsearch =
                    ports.resolve(options.elasticsearchPort(), "Elasticsearch HTTP", "--elasticsearch-port");
            int elasticsearchTransport = ports.resolve(
                    options.elasticsearchTransportPort(), "Elasticsearch transport", "--elasticsearch-transport-port");
            int scaler = ports.resolve(options.scalerPort(), "scaler", "--scaler-port");
            List<Integer> connect = new ArrayList<>();
            for (int i = 0; i < options.workers(); i++) {
                connect.add(ports.resolve(
                        options.connectPort() == 0 ? 0 : options.connectPort() + i,
                        "Connect worker " + i,
                        "--connect-port"));
            }
            List<Integer> metrics = new ArrayList<>();
            for (int i = 0; options.metrics().exporter() && i < options.workers(); i++) {
                int first = options.metrics().exporterPort();
                metrics.add(ports.resolve(first == 0 ? 0 : first + i, "JMX exporter of worker " + i, "--metrics-port"));
            }
            Integer prometheus = options.metrics().prometheus()
                    ? ports.resolve(options.metrics().prometheusPort(), "Prometheus", "--prometheus-port")
                    : null;
            Integer sinkProxy =
                    options.sinkLatencyMs() > 0 ? ports.resolve(0, "sink latency proxy", "--sink-latency-ms") : null;
            return new StackPorts(
                    kafka,
                    controller,
                    elasticsearch,
                    elasticsearchTransport,
                    scaler,
                    List.copyOf(connect),
                    List.copyOf(metrics),
                    prometheus,
                    sinkProxy);
        } finally {
            ports.release();
        }
    }

    /** Where a stack on these ports answers. */
    StackEndpoints endpoints(Path dataDir) {
        return new StackEndpoints(
                HOST + ":" + kafka,
                connect.stream().map(p -> url(p, "")).toList(),
                url(elasticsearch, ""),
                url(scaler, ""),
                dataDir,
                metrics.stream().map(p -> url(p, "/metrics")).toList(),
                prometheus == null ? null : url(prometheus, ""),
                sinkProxy == null ? url(elasticsearch, "") : url(sinkProxy, ""));
    }

    private static URI url(int port, String path) {
        return URI.create("http://" + HOST + ":" + port + path);
    }
}
