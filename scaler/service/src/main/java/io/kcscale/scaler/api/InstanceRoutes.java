package io.kcscale.scaler.api;

import io.kcscale.scaler.service.Scaler;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * {@code GET /api/v1/instance}: which replica answers, whether it is the one that autoscales, whether it can (it
 * reads the state topic), and how safely Kafka keeps that topic.
 */
final class InstanceRoutes implements Routes {

    static final String PATH = "/api/v1/instance";

    private final Optional<Scaler> scaler;

    InstanceRoutes(Optional<Scaler> scaler) {
        this.scaler = scaler;
    }

    @Override
    public void register(RouteTable routes) {
        routes.get(PATH, call -> {
            Scaler s = ConnectorRoutes.connected(scaler);
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("id", s.instanceId());
            body.put("leader", s.leads());
            body.put("leaderId", s.leaderId().orElse(null));
            body.put("autoscaling", s.autoscalingOff().isEmpty());
            body.put("autoscalingOff", s.autoscalingOff().orElse(null));
            body.put("stateTopic", s.stateTopic().orElse(null));
            return body;
        });
    }
}
