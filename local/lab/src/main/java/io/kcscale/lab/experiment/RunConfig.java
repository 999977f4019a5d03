package io.kcscale.lab.experiment;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.utils.AppInfoParser;

/**
 * A run's full configuration, written next to its results as {@code config.json}: the command, the seed,
 * every timing and threshold, the connector configs as run, the stack and the machine. Enough to run
 * the same experiment again and to know why two runs differ.
 */
final class RunConfig {

    private final Map<String, Object> values = new LinkedHashMap<>();

    RunConfig(String experiment, String command, long seed, boolean quick, Timing timing) {
        values.put("experiment", experiment);
        values.put("command", command);
        values.put("writtenAt", Instant.now().toString());
        values.put("seed", seed);
        values.put("quick", quick);
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("settleSeconds", timing.settle().toMillis() / 1000.0);
        t.put("holdSeconds", timing.hold().toMillis() / 1000.0);
        t.put("fullSpeedWarmupSeconds", timing.warmup().toMillis() / 1000.0);
        t.put("fullSpeedWindowSeconds", timing.window().toMillis() / 1000.0);
        t.put("bisectionTrials", timing.trials());
        t.put("latencySamplesPerShard", timing.latencySamples());
        t.put("lagSampleSeconds", Trial.SAMPLE_SECONDS);
        t.put("indexClockMillis", IndexClock.INTERVAL_MILLIS);
        values.put("timing", t);
        Map<String, Object> stack = new LinkedHashMap<>();
        stack.put("kafkaClients", AppInfoParser.getVersion());
        stack.put("connectWorkers", ExperimentStack.WORKERS);
        stack.put("sourceTasks", 1);
        stack.put("indexModeMaxPollRecords", ExperimentPipeline.INDEX_MODE_POLL_RECORDS);
        values.put("stack", stack);
        values.put("machine", Machine.describe());
    }

    RunConfig put(String key, Object value) {
        values.put(key, value);
        return this;
    }

    static Map<String, Object> bound(LagBound bound) {
        Map<String, Object> b = new LinkedHashMap<>();
        b.put("maxSlopeShareOfRate", bound.maxSlopeShare());
        b.put("capSecondsOfArrivals", bound.capSeconds());
        b.put("capFloorRecords", bound.capFloor());
        b.put("minDeliveredShare", bound.minDeliveredShare());
        b.put("abortAtCapTimes", Trial.ABORT_FACTOR);
        b.put("definition", bound.describe());
        return b;
    }

    Map<String, Object> values() {
        return values;
    }
}
