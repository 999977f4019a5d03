package io.kcscale.scaler.api;

import io.kcscale.scaler.predict.KafkaClusterCapacity;
import io.kcscale.scaler.predict.KafkaRequest;
import io.kcscale.scaler.predict.LagThreshold;
import io.kcscale.scaler.predict.LagThresholdRequest;
import io.kcscale.scaler.predict.ShardPrediction;
import io.kcscale.scaler.predict.ShardsRequest;
import io.kcscale.scaler.predict.TaskPrediction;
import io.kcscale.scaler.predict.TasksRequest;
import io.kcscale.scaler.predict.WorkerPrediction;
import io.kcscale.scaler.predict.WorkersRequest;
import io.kcscale.scaler.service.Scaler;
import java.util.Optional;
import java.util.function.Function;

/**
 * {@code POST /api/v1/predict/...}: the predict verbs over HTTP, same requests and results as the CLI's {@code --json}.
 * A request field is either given, like a CLI flag, or left out, like an omitted flag; JSON {@code null} is
 * refused rather than guessed at (does {@code "replicas": null} mean none, or the default of 1?).
 * No token is needed, so the work is bounded: a body of at most {@link JsonBody#MAX_BYTES}, a prediction of
 * at most 1,000 measured points (its fit and refits bounded in iterations), and {@link #PREDICTIONS} predictions
 * at once, with permits of their own: a flood of them spends at most that many cores and takes no check's or
 * scale's permit. The body is read before a permit is taken, so a client slow to send holds none. A task prediction
 * for a {@code connector} sizes from what the scaler observes of it and judges the checks (a key sample of seconds)
 * for the tasks it plans: it holds one of the checks' permits, as a check does, and needs a connected scaler.
 */
public final class PredictRoutes implements Routes {

    public static final String PREFIX = "/api/v1/predict/";
    /** Predictions computed at once: one per core of a small host; each takes milliseconds to about a second. */
    static final int PREDICTIONS = 2;

    private final SlowWork predictions = new SlowWork("predictions", PREDICTIONS);
    private final Optional<Scaler> scaler;

    PredictRoutes(Optional<Scaler> scaler) {
        this.scaler = scaler;
    }

    @Override
    public void register(RouteTable routes) {
        routes.post(PREFIX + "tasks", call -> {
            TasksRequest parsed = JsonBody.readWithoutNulls(call.body(), TasksRequest.class);
            if (parsed.connector() == null) {
                return predictions.run(() -> TaskPrediction.predict(parsed));
            }
            return routes.check(live -> ConnectorRoutes.connected(scaler).predictTasks(parsed))
                    .handle(call);
        });
        post(routes, "kafka", KafkaRequest.class, KafkaClusterCapacity::predict);
        post(routes, "lag-threshold", LagThresholdRequest.class, LagThreshold::predict);
        post(routes, "shards", ShardsRequest.class, ShardPrediction::predict);
        post(routes, "workers", WorkersRequest.class, WorkerPrediction::predict);
    }

    private <T> void post(RouteTable routes, String verb, Class<T> request, Function<T, ?> predict) {
        routes.post(PREFIX + verb, call -> {
            T parsed = JsonBody.readWithoutNulls(call.body(), request);
            return predictions.run(() -> predict.apply(parsed));
        });
    }
}
