package io.kcscale.scaler.api;

import io.kcscale.scaler.service.Scaler;
import io.kcscale.scaler.service.ScalerMetrics;
import java.util.Optional;

/** {@code GET /metrics}: Prometheus text exposition (empty of pipeline figures when not connected). */
final class MetricsRoutes implements Routes {

    static final String PATH = "/metrics";

    private final Optional<Scaler> scaler;

    MetricsRoutes(Optional<Scaler> scaler) {
        this.scaler = scaler;
    }

    @Override
    public void register(RouteTable routes) {
        routes.get(
                PATH,
                call -> new RawBody(
                        ScalerMetrics.contentType(),
                        scaler.map(Scaler::scrapeMetrics).orElse(new byte[0])));
    }
}
