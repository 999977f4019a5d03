package io.kcscale.local;

/**
 * A listener of the broker's own that clients reach only through a proxy of the caller's: the broker listens on
 * {@code port} and tells the clients that bootstrap there to connect to {@code advertisedPort}, where the proxy
 * listens. Cutting the proxy cuts those clients from Kafka, and nobody else (the scaler's chaos benchmark).
 */
public record ProxiedKafkaListener(int port, int advertisedPort) {

    public ProxiedKafkaListener {
        if (port < 1 || port > 65535 || advertisedPort < 1 || advertisedPort > 65535 || port == advertisedPort) {
            throw new IllegalArgumentException(
                    "a proxied listener needs two distinct ports, got " + port + " and " + advertisedPort);
        }
    }
}
