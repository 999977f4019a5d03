package io.kcscale.lab.simulator;

/** How the sink group spreads partitions over tasks, as Kafka's consumer assignors do for one topic. */
public enum Assignor {
    /** Contiguous ranges, the first (partitions mod tasks) tasks one partition more: Kafka's default RangeAssignor. */
    RANGE,
    /** Partition p to task p mod tasks. */
    ROUND_ROBIN;

    /** The task of each partition; tasks beyond the partition count get none and sit idle. */
    public int[] assign(int partitions, int tasks) {
        int[] taskOf = new int[partitions];
        int perTask = partitions / tasks;
        int extra = partitions % tasks;
        for (int p = 0; p < partitions; p++) {
            taskOf[p] = this == ROUND_ROBIN ? p % tasks : rangeTask(p, perTask, extra);
        }
        return taskOf;
    }

    private static int rangeTask(int partition, int perTask, int extra) {
        int bigRanges = extra * (perTask + 1);
        return partition < bigRanges ? partition / (perTask + 1) : extra + (partition - bigRanges) / perTask;
    }
}
