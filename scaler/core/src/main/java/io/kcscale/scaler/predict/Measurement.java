package io.kcscale.scaler.predict;

/** One experiment: this many tasks sustained this throughput (records/s). Null = not given. */
public record Measurement(Double tasks, Double throughput) {}
