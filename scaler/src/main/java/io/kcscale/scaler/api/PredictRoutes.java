package io.kcscale.scaler.api;

import io.kcscale.scaler.predict.KafkaClusterCapacity;
import io.kcscale.scaler.predict.KafkaRequest;
import io.kcscale.scaler.predict.LagThreshold;
import io.kcscale.scaler.predict.LagThresholdRequest;
import io.kcscale.scaler.predict.ShardPrediction;
import io.kcscale.scaler.predict.ShardsRequest;
import io.kcscale.scaler.predict.TaskPrediction;
import io.kcscale.scaler.predict.TasksRequest;

/** {@code POST /api/v1/predict/...}: the predict verbs over HTTP, same requests and results as the CLI's {@code --json}. */
public final class PredictRoutes implements Routes {

    public static final String PREFIX = "/api/v1/predict/";

    @Override
    public void register(Router router) {
        router.post(PREFIX + "tasks", TasksRequest.class, TaskPrediction::predict);
        router.post(PREFIX + "kafka", KafkaRequest.class, KafkaClusterCapacity::predict);
        router.post(PREFIX + "lag-threshold", LagThresholdRequest.class, LagThreshold::predict);
        router.post(PREFIX + "shards", ShardsRequest.class, ShardPrediction::predict);
    }
}
