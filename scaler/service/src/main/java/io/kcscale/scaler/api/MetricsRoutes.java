package io.kcscale.scaler.api;

import java.util.Optional;

import io.kcscale.scaler.service.ScalerMetrics;
import io.kcscale.scaler.service.Scaler;

/** {@code GET /metrics}: Prometheus text exposition (empty of pipeline figures when not connected). */
final class MetricsRoutes implements Routes {

    static final String PATH = "/metrics";

    private final Optional<Scaler> scaler;

    MetricsRoutes(Optional<Scaler> scaler) {
        this.scaler = scaler;
    }

    @Override
    public void register(RouteTable routes) {
        routes.get(PATH, call -> new RawBody(ScalerMetrics.contentType(),
                scaler.map(Scaler::scrapeMetrics).orElse(new byte[0])));
    }
}
