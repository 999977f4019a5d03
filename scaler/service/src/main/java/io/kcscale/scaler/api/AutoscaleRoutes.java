package io.kcscale.scaler.api;

import io.kcscale.scaler.autoscale.AutoscalePolicy;
import io.kcscale.scaler.kafka.KafkaUnavailableException;
import io.kcscale.scaler.service.Scaler;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/** {@code /api/v1/connectors/{name}/autoscale}: set, read and stop a connector's autoscale policy; {@code /api/v1/autoscale}: read all. */
final class AutoscaleRoutes implements Routes {

    static final String PATH = "/api/v1/connectors/{name}/autoscale";
    /** Every policy at once, so that a poller (the web view) need not take a 404 for each connector without one. */
    static final String ALL = "/api/v1/autoscale";
    /** What the policy would set now, for KEDA's metrics-API trigger or an HPA; read-only, so no token. */
    static final String RECOMMENDATION = "/api/v1/connectors/{name}/recommendation";

    private final Optional<Scaler> scaler;

    AutoscaleRoutes(Optional<Scaler> scaler) {
        this.scaler = scaler;
    }

    @Override
    public void register(RouteTable routes) {
        routes.put(PATH, call -> {
            Scaler s = ConnectorRoutes.connected(scaler);
            ConnectorRoutes.requireToken(call, s);
            AutoscalePolicy policy = JsonBody.readWithoutNulls(call.body(), AutoscalePolicy.class);
            String name = call.pathParameter("name");
            return stored(() -> s.putPolicy(name, policy));
        });
        routes.get(PATH, call -> {
            String name = call.pathParameter("name");
            return ConnectorRoutes.connected(scaler)
                    .policy(name)
                    .orElseThrow(
                            () -> new ApiError(404, "no autoscale policy for " + name + "; PUT one to start", null));
        });
        routes.get(RECOMMENDATION, call -> {
            Scaler s = ConnectorRoutes.connected(scaler);
            String name = call.pathParameter("name");
            try {
                return s.recommend(name)
                        .orElseThrow(() -> new ApiError(
                                404,
                                "no autoscale policy for " + name
                                        + "; PUT one (with dryRun true when another actuator, such as KEDA, applies it) to get a recommendation",
                                null));
            } catch (IllegalStateException notObserved) {
                throw new ApiError(
                        503,
                        "no recommendation for " + name + " now: " + notObserved.getMessage(),
                        null,
                        Map.of("Retry-After", "5"));
            }
        });
        routes.get(ALL, call -> ConnectorRoutes.connected(scaler).policies());
        routes.delete(PATH, call -> {
            Scaler s = ConnectorRoutes.connected(scaler);
            ConnectorRoutes.requireToken(call, s);
            String name = call.pathParameter("name");
            if (!stored(() -> s.removePolicy(name))) {
                throw new ApiError(404, "no autoscale policy for " + name, null);
            }
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("connector", name);
            body.put("autoscaling", false);
            return body;
        });
    }

    /** A write to the state topic that Kafka did not take within its timeout: 503, as the store did not change or says so on read. */
    private static <T> T stored(Supplier<T> write) {
        try {
            return write.get();
        } catch (KafkaUnavailableException e) {
            throw new ApiError(
                    503,
                    "the autoscale policies are kept in Kafka, which did not take the change: " + e.getMessage()
                            + "; GET the policy to see what Kafka holds",
                    null,
                    Map.of("Retry-After", "5"));
        }
    }
}
