package io.kcscale.scaler.predict;

import static io.kcscale.scaler.predict.TaskPredictionTest.assertField;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ShardPredictionTest {

    @Test
    void primariesAreTheRateOverThePerShardRateRoundedUp() {
        ShardsResult result = ShardPrediction.predict(new ShardsRequest(10_000.0, 1_500.0, 3.0, null));
        assertEquals(7, result.primaryShards());
        assertEquals(1, result.replicas());
        assertEquals(14, result.totalShards());
        assertEquals(5, result.shardsPerNode());
        assertTrue(result.advice().get(0).contains("_split"), result.advice().get(0));
    }

    @Test
    void everyDataNodeGetsAPrimary() {
        // the field report: 1 shard capped 5 tasks at 270/s; 350/s needs one primary per node to index everywhere
        ShardsResult result = ShardPrediction.predict(new ShardsRequest(350.0, 300.0, 3.0, 2.0));
        assertEquals(3, result.primaryShards());
        assertEquals(9, result.totalShards());
        assertTrue(
                result.assumptions().get(2).startsWith("one primary per data node"),
                result.assumptions().get(2));
    }

    @Test
    void replicasWithoutANodeOfTheirOwnAreFlagged() {
        ShardsResult result = ShardPrediction.predict(new ShardsRequest(100.0, 100.0, 1.0, 1.0));
        assertTrue(
                result.advice().stream().anyMatch(a -> a.contains("unassigned")),
                result.advice().toString());
        ShardsResult none = ShardPrediction.predict(new ShardsRequest(100.0, 100.0, 1.0, 0.0));
        assertTrue(
                none.advice().stream().noneMatch(a -> a.contains("unassigned")),
                none.advice().toString());
    }

    @Test
    void badInputNamesItsField() {
        assertField("targetRate", () -> ShardPrediction.predict(new ShardsRequest(-1.0, 100.0, 1.0, null)));
        assertField("targetRate", () -> ShardPrediction.predict(new ShardsRequest(1e300, 1.0, 1.0, null)));
        assertField("perShardRate", () -> ShardPrediction.predict(new ShardsRequest(1.0, 0.0, 1.0, null)));
        assertField("dataNodes", () -> ShardPrediction.predict(new ShardsRequest(1.0, 1.0, 0.0, null)));
        assertField("replicas", () -> ShardPrediction.predict(new ShardsRequest(1.0, 1.0, 1.0, -1.0)));
        assertField("replicas", () -> ShardPrediction.predict(new ShardsRequest(1.0, 1.0, 1.0, 0.5)));
    }
}
