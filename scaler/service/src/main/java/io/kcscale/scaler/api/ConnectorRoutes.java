package io.kcscale.scaler.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.scaler.model.RecordAge;
import io.kcscale.scaler.model.SnapshotHistory;
import io.kcscale.scaler.scale.ScaleRequest;
import io.kcscale.scaler.service.Scaler;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /api/v1/connectors...}: what the scaler observes of each sink pipeline, and the scale action.
 * Without a connected pipeline (serve started with no Connect URL) they answer 503 saying so.
 */
final class ConnectorRoutes implements Routes {

    static final String LIST = "/api/v1/connectors";
    static final String ONE = "/api/v1/connectors/{name}";
    static final String SCALE = "/api/v1/connectors/{name}/scale";
    static final String HISTORY = "/api/v1/connectors/{name}/history";
    static final String RECORD_AGES = "/api/v1/connectors/{name}/record-ages";

    private final Optional<Scaler> scaler;

    ConnectorRoutes(Optional<Scaler> scaler) {
        this.scaler = scaler;
    }

    @Override
    public void register(RouteTable routes) {
        routes.get(LIST, call -> scaler().snapshots());
        routes.get(ONE, call -> scaler().snapshot(call.pathParameter("name")));
        routes.get(
                HISTORY,
                call -> new History(
                        call.pathParameter("name"),
                        SnapshotHistory.SPAN_MILLIS / 1000,
                        scaler().history(call.pathParameter("name"))));
        // reads Kafka for up to seconds: on the checks' permits, so that many of them cannot starve a scale
        routes.get(
                RECORD_AGES,
                routes.check(call -> new RecordAges(
                        call.pathParameter("name"),
                        scaler().recordAges(call.pathParameter("name"), System.currentTimeMillis()))));
        routes.post(SCALE, routes.scale(call -> {
            Scaler s = scaler();
            requireToken(call, s);
            return s.scale(call.pathParameter("name"), parse(JsonBody.read(call.body(), JsonNode.class)));
        }));
    }

    /**
     * What the scaler sampled of a connector over the last {@code spanSeconds}, a point per sample, oldest first.
     */
    record History(String connector, long spanSeconds, List<SnapshotHistory.Point> points) {}

    /** The lag's age cross-checked against the records at the committed offsets, oldest partition first. */
    record RecordAges(String connector, List<RecordAge> partitions) {}

    /** {@code {"tasks": N, "dryRun": false, "allowIdleTasks": false, "force": false}}: tasks a whole number, the rest booleans. */
    static ScaleRequest parse(JsonNode body) {
        if (!body.isObject()) {
            throw new ApiError(400, "the request body must be a JSON object", null);
        }
        body.fieldNames().forEachRemaining(f -> {
            if (!List.of("tasks", "dryRun", "allowIdleTasks", "force").contains(f)) {
                throw new ApiError(
                        400,
                        f + " is not a field of this request; known fields: [tasks, dryRun, allowIdleTasks, force]",
                        f);
            }
        });
        JsonNode tasks = body.path("tasks");
        if (tasks.isMissingNode()) {
            throw new ApiError(400, "tasks is required: the number of tasks to run", "tasks");
        }
        if (!tasks.isIntegralNumber() || !tasks.canConvertToInt()) {
            throw new ApiError(400, "tasks must be a whole number, got " + tasks, "tasks");
        }
        return new ScaleRequest(
                tasks.intValue(), flag(body, "dryRun"), flag(body, "allowIdleTasks"), flag(body, "force"));
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

    /** When a token is configured, mutating requests must carry it as a bearer token. */
    static void requireToken(Call call, Scaler s) {
        Optional<String> token = s.token();
        if (token.isEmpty()) {
            return;
        }
        String header = call.header("Authorization").orElse("");
        byte[] expected = ("Bearer " + token.get()).getBytes(StandardCharsets.UTF_8);
        if (!MessageDigest.isEqual(expected, header.getBytes(StandardCharsets.UTF_8))) {
            throw new ApiError(
                    401,
                    "this endpoint needs the scaler's bearer token: Authorization: Bearer <token>",
                    null,
                    Map.of("WWW-Authenticate", "Bearer"));
        }
    }

    private Scaler scaler() {
        return connected(scaler);
    }

    /** The connected scaler, or the 503 that says how to connect one. */
    static Scaler connected(Optional<Scaler> scaler) {
        return scaler.orElseThrow(() -> new ApiError(
                503,
                "the scaler is not connected to a pipeline: start it with "
                        + "--connect-url, --kafka-bootstrap-servers and --elasticsearch-url (or --config FILE)",
                null));
    }
}
