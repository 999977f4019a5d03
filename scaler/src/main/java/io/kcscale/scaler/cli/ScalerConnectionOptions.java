package io.kcscale.scaler.cli;

import java.net.URI;
import java.util.Optional;

import picocli.CommandLine.Option;

/** Where the live verbs find the scaler service, and its token. */
final class ScalerConnectionOptions {

    @Option(names = "--scaler-url", paramLabel = "URL",
            description = "The scaler service (default: $KCSCALE_URL, else http://127.0.0.1:8080).")
    String scalerUrl = Optional.ofNullable(System.getenv("KCSCALE_URL")).orElse("http://127.0.0.1:8080");

    @Option(names = "--token", paramLabel = "TOKEN", description = "Bearer token for mutating calls (default: $KCSCALE_TOKEN).")
    String token = System.getenv("KCSCALE_TOKEN");

    ScalerApiClient client() {
        return new ScalerApiClient(URI.create(scalerUrl), Optional.ofNullable(token).filter(t -> !t.isBlank()));
    }
}
