package io.kcscale.scaler.cli;

import io.kcscale.scaler.common.Secret;
import java.net.URI;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;

/** Where the live verbs find the scaler service, and its token. */
final class ScalerConnectionOptions {

    @Option(
            names = "--scaler-url",
            paramLabel = "URL",
            description = "The scaler service (default: $KCSCALE_URL, else http://127.0.0.1:8080).")
    String scalerUrl = Optional.ofNullable(System.getenv("KCSCALE_URL")).orElse("http://127.0.0.1:8080");

    @Option(
            names = "--token",
            paramLabel = "TOKEN",
            description = "Bearer token for mutating calls (default: $KCSCALE_TOKEN).")
    String token;

    @Option(
            names = "--token-file",
            paramLabel = "FILE",
            description = "A file holding the token: unlike --token, not shown by ps.")
    String tokenFile;

    /** @throws ScalerApiClient.Failure when the token file cannot be read */
    ScalerApiClient client() {
        Map<String, String> values = new HashMap<>();
        // either flag wins over the environment
        Optional.ofNullable(token != null || tokenFile != null ? token : System.getenv("KCSCALE_TOKEN"))
                .ifPresent(t -> values.put("token", t));
        Optional.ofNullable(tokenFile).ifPresent(f -> values.put("token" + Secret.FILE_SUFFIX, f));
        try {
            return new ScalerApiClient(URI.create(scalerUrl), Secret.of(values, "token"));
        } catch (IllegalArgumentException e) {
            throw new ScalerApiClient.Failure(-1, e.getMessage());
        }
    }
}
