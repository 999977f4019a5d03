package io.kcscale.scaler.api;

import java.util.Map;

/**
 * {@code GET /healthz}: 200 while the API serves, for Kubernetes' liveness and readiness probes. It
 * asks no pipeline system: a Connect or Elasticsearch outage shows in the connectors' {@code degraded},
 * and must not restart the scaler or take it out of its Service.
 */
final class HealthRoutes implements Routes {

    static final String PATH = "/healthz";
    private static final Map<String, String> OK = Map.of("status", "ok");

    @Override
    public void register(RouteTable routes) {
        routes.get(PATH, call -> OK);
    }
}
