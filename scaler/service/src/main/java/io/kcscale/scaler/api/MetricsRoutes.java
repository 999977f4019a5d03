package io.kcscale.scaler.api;

import java.util.Optional;

import io.kcscale.scaler.service.ScalerMetrics;
import io.kcscale.scaler.service.ScalerService;

/** {@code GET /metrics}: Prometheus text exposition (empty of pipeline figures when not connected). */
final class MetricsRoutes implements Routes {

    static final String PATH = "/metrics";

    private final Optional<ScalerService> service;

    MetricsRoutes(Optional<ScalerService> service) {
        this.service = service;
    }

    @Override
    public void register(RouteTable routes) {
        routes.get(PATH, call -> new RawBody(ScalerMetrics.contentType(),
                service.map(s -> s.metrics().scrape()).orElse(new byte[0])));
    }
}
