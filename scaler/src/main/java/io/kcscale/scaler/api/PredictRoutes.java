package io.kcscale.scaler.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.kcscale.scaler.predict.KafkaClusterCapacity;
import io.kcscale.scaler.predict.KafkaRequest;
import io.kcscale.scaler.predict.LagThreshold;
import io.kcscale.scaler.predict.LagThresholdRequest;
import io.kcscale.scaler.predict.ShardPrediction;
import io.kcscale.scaler.predict.ShardsRequest;
import io.kcscale.scaler.predict.TaskPrediction;
import io.kcscale.scaler.predict.TasksRequest;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Iterator;
import java.util.Map;
import java.util.function.Function;

/**
 * {@code POST /api/v1/predict/...}: the predict verbs over HTTP, same requests and results as the CLI's {@code --json}.
 * A request field is either given, like a CLI flag, or left out, like an omitted flag; JSON {@code null} is
 * refused rather than guessed at (does {@code "replicas": null} mean none, or the default of 1?).
 */
public final class PredictRoutes implements Routes {

    public static final String PREFIX = "/api/v1/predict/";

    @Override
    public void register(Router router) {
        post(router, "tasks", TasksRequest.class, TaskPrediction::predict);
        post(router, "kafka", KafkaRequest.class, KafkaClusterCapacity::predict);
        post(router, "lag-threshold", LagThresholdRequest.class, LagThreshold::predict);
        post(router, "shards", ShardsRequest.class, ShardPrediction::predict);
    }

    private static <T> void post(Router router, String verb, Class<T> request, Function<T, ?> predict) {
        router.post(PREFIX + verb, exchange -> predict.apply(read(exchange.getRequestBody(), request)));
    }

    /** The body as {@code type}, and no null anywhere in it; else a 4xx {@link ApiError}. */
    static <T> T read(InputStream body, Class<T> type) throws IOException {
        // one byte over the limit is enough for JsonBody to answer 413
        byte[] bytes = body.readNBytes(JsonBody.MAX_BYTES + 1);
        // malformed JSON, unknown fields and wrong types first: Jackson reads a null as an absent field
        T request = JsonBody.read(new ByteArrayInputStream(bytes), type);
        String at = firstNull(JsonBody.read(new ByteArrayInputStream(bytes), JsonNode.class), "");
        if (at != null) {
            boolean field = !at.endsWith("]");
            throw new ApiError(400, at + " must not be null" + (field
                    ? ": give a value, or leave an optional field out to take its default" : ""), at);
        }
        return request;
    }

    /** The path of the first null in {@code node}, named as JsonBody names fields ({@code measurements[2].tasks}). */
    private static String firstNull(JsonNode node, String path) {
        if (node.isNull()) {
            return path;
        }
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                String found = firstNull(field.getValue(), path.isEmpty() ? field.getKey() : path + "." + field.getKey());
                if (found != null) {
                    return found;
                }
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                String found = firstNull(node.get(i), path + "[" + i + "]");
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }
}
