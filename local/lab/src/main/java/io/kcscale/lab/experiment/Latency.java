package io.kcscale.lab.experiment;

/**
 * End-to-end latency of a sample of documents: from the {@code produced_at_ms} the source stamped
 * into each record to the moment Elasticsearch's primary shard indexed it.
 *
 * @param samples documents measured
 */
public record Latency(double p50Millis, double p99Millis, int samples) {}
