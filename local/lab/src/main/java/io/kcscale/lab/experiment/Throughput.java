package io.kcscale.lab.experiment;

import java.util.List;

/**
 * Records/s the sink group committed, in all and per task.
 *
 * @param perTask by task id, 0 for a task whose partitions received nothing
 */
public record Throughput(double total, List<Double> perTask) {}
