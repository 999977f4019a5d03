package io.kcscale.lab.experiment;

import io.kcscale.local.SinkMode;

/**
 * What one scenario runs on: a topic and an index of the same name (so the scaler finds the index of
 * a bulk sink too, which names it outside its URL), their partitions and primary shards, the record
 * field the source keys by, and how the sink writes.
 */
public record PipelineLayout(String name, int partitions, int shards, String keyField, SinkMode sinkMode) {}
