package io.kcscale.local;

/**
 * What {@code up --metrics} and {@code up --prometheus} ask for: the JMX exporter agent on every
 * Connect worker (worker i on {@code exporterPort + i}; 0 means free ports), and Prometheus against
 * the stack with the compose stack's configuration and rules.
 */
public record MetricsOptions(boolean exporter, int exporterPort, boolean prometheus, int prometheusPort) {

    public MetricsOptions {
        // Prometheus without the workers' figures would record next to nothing: it brings the agent along
        exporter = exporter || prometheus;
        for (int port : new int[] {exporterPort, prometheusPort}) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("ports must be between 0 and 65535, got " + port);
            }
        }
    }
}
