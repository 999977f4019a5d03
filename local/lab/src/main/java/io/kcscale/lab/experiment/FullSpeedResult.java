package io.kcscale.lab.experiment;

/**
 * What the sink's tasks consumed from a backlog; {@code ranDry}: the backlog ran out inside the window, so a lower bound;
 * {@code workerCapacity}: the worker-capacity check over the window, when the experiment asked for it, else null.
 */
public record FullSpeedResult(Throughput throughput, boolean ranDry, WorkerCapacityProbe.Reading workerCapacity) {

    public FullSpeedResult(Throughput throughput, boolean ranDry) {
        this(throughput, ranDry, null);
    }
}
