package io.kcscale.scaler.api;

import java.io.IOException;
import java.security.MessageDigest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;

import io.kcscale.scaler.act.ScaleAction;
import io.kcscale.scaler.act.ScaleException;
import io.kcscale.scaler.act.ScaleRequest;
import io.kcscale.scaler.act.ScaleResult;
import io.kcscale.scaler.model.PipelineSnapshot;
import io.kcscale.scaler.model.SnapshotHistory;
import io.kcscale.scaler.connect.ConnectRestException;
import io.kcscale.scaler.connect.ConnectorStatus;
import io.kcscale.scaler.service.ScalerService;

/**
 * {@code /api/v1/connectors...}: what the scaler observes of each sink pipeline, and the scale action.
 * Without a connected pipeline (serve started with no Connect URL) they answer 503 saying so.
 */
final class ConnectorRoutes implements Routes {

    static final String LIST = "/api/v1/connectors";
    static final String ONE = "/api/v1/connectors/{name}";
    static final String SCALE = "/api/v1/connectors/{name}/scale";
    static final String HISTORY = "/api/v1/connectors/{name}/history";

    private final Optional<ScalerService> service;

    ConnectorRoutes(Optional<ScalerService> service) {
        this.service = service;
    }

    @Override
    public void register(RouteTable routes) {
        routes.get(LIST, call -> service().watcher().snapshots());
        routes.get(ONE, call -> snapshot(service(), call.pathParameter("name")));
        routes.get(HISTORY, call -> history(service(), call.pathParameter("name")));
        routes.post(SCALE, routes.slow(call -> scale(call, call.pathParameter("name"))));
    }

    /** The connector's latest snapshot; 404, 422 or 503 (with Retry-After) when there is none to give. */
    static PipelineSnapshot snapshot(ScalerService s, String name) {
        Optional<PipelineSnapshot> known = s.watcher().snapshot(name);
        if (known.isPresent()) {
            return known.get();
        }
        requireSink(s, name);
        // created since the last sampling round: sample now rather than make the caller wait for the next
        s.watcher().sampleOnce();
        return s.watcher().snapshot(name).orElseThrow(() -> new ApiError(503,
                name + " is not observed yet; retry in a few seconds", null, Map.of("Retry-After", "2")));
    }

    /**
     * What the scaler sampled of a connector over the last {@code spanSeconds}, a point per sample, oldest first.
     */
    record History(String connector, long spanSeconds, List<SnapshotHistory.Point> points) {
    }

    private static History history(ScalerService s, String name) {
        snapshot(s, name);
        return new History(name, SnapshotHistory.SPAN_MILLIS / 1000, s.watcher().history(name));
    }

    private ScaleResult scale(Call call, String name) throws IOException {
        ScalerService s = service();
        requireToken(call, s);
        ScaleRequest request = parse(JsonBody.read(call.body(), JsonNode.class));
        try {
            // an active autoscale policy would undo a manual scale: refused unless forced, then paused just before the write
            Optional<String> policy = s.autoscaler().admitManualScale(name, request.force(), request.dryRun());
            ScaleResult result = s.scaleAction().scale(name, request, () -> s.autoscaler().pause(name));
            s.metrics().recordScale(result);
            return policy.map(result::withAutoscale).orElse(result);
        } catch (ScaleException e) {
            s.metrics().recordRefusal(name, e.kind().name());
            throw new ApiError(e.kind().status, e.getMessage(), e.field());
        }
    }

    /** {@code {"tasks": N, "dryRun": false, "allowIdleTasks": false, "force": false}}: tasks a whole number, the rest booleans. */
    static ScaleRequest parse(JsonNode body) {
        if (!body.isObject()) {
            throw new ApiError(400, "the request body must be a JSON object", null);
        }
        body.fieldNames().forEachRemaining(f -> {
            if (!List.of("tasks", "dryRun", "allowIdleTasks", "force").contains(f)) {
                throw new ApiError(400, f + " is not a field of this request; known fields: [tasks, dryRun, allowIdleTasks, force]", f);
            }
        });
        JsonNode tasks = body.path("tasks");
        if (tasks.isMissingNode()) {
            throw new ApiError(400, "tasks is required: the number of tasks to run", "tasks");
        }
        if (!tasks.isIntegralNumber() || !tasks.canConvertToInt()) {
            throw new ApiError(400, "tasks must be a whole number, got " + tasks, "tasks");
        }
        return new ScaleRequest(tasks.intValue(), flag(body, "dryRun"), flag(body, "allowIdleTasks"), flag(body, "force"));
    }

    /** Absent means false; null is refused as everywhere in this API (give a value, or leave the field out). */
    private static boolean flag(JsonNode body, String field) {
        JsonNode value = body.path(field);
        if (value.isMissingNode()) {
            return false;
        }
        if (!value.isBoolean()) {
            throw new ApiError(400, field + " must be true or false, got " + value, field);
        }
        return value.booleanValue();
    }

    /** 404 for a connector that does not exist, 422 for one that is not a sink, 503 when Connect cannot tell. */
    static void requireSink(ScalerService s, String name) {
        Optional<String> type = s.watcher().nonSinkType(name);
        if (type.isPresent()) {
            throw new ApiError(422, name + " is a " + type.get() + " connector: the scaler observes sink connectors", null);
        }
        try {
            ConnectorStatus status = s.connect().connectorStatus(name);
            if (!status.isSink()) {
                throw new ApiError(422, name + " is a " + status.type() + " connector: the scaler observes sink connectors", null);
            }
        } catch (ConnectRestException.ConnectorNotFound e) {
            throw new ApiError(404, "no connector named " + name, null);
        } catch (ConnectRestException.PathRejected e) {
            ScaleException answer = ScaleAction.pathRejected(s.connect(), name, e);
            throw new ApiError(answer.kind().status, answer.getMessage(), null);
        } catch (ConnectRestException.ConfigRejected e) {
            // Connect refuses such a name in a path (control characters, say), so no connector has it
            throw new ApiError(404, "no connector named " + name + " (Kafka Connect rejects the name)", null);
        } catch (ConnectRestException e) {
            throw new ApiError(503, name + " is unknown and Kafka Connect does not answer: " + e.getMessage(), null,
                    Map.of("Retry-After", "5"));
        }
    }

    /** When a token is configured, mutating requests must carry it as a bearer token. */
    static void requireToken(Call call, ScalerService s) {
        Optional<String> token = s.settings().token();
        if (token.isEmpty()) {
            return;
        }
        String header = call.header("Authorization").orElse("");
        byte[] expected = ("Bearer " + token.get()).getBytes(StandardCharsets.UTF_8);
        if (!MessageDigest.isEqual(expected, header.getBytes(StandardCharsets.UTF_8))) {
            throw new ApiError(401, "this endpoint needs the scaler's bearer token: Authorization: Bearer <token>", null,
                    Map.of("WWW-Authenticate", "Bearer"));
        }
    }

    private ScalerService service() {
        return connected(service);
    }

    /** The connected service, or the 503 that says how to connect one. */
    static ScalerService connected(Optional<ScalerService> service) {
        return service.orElseThrow(() -> new ApiError(503, "the scaler is not connected to a pipeline: start it with "
                + "--connect-url, --bootstrap-servers and --elasticsearch-url (or --config FILE)", null));
    }
}
