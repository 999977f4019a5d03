package io.kcscale.scaler.predict;

/** Every task adds the same per-task rate: the model when contention has not been measured. */
public record LinearScaling(double perTaskRate) implements ScalingModel {

    @Override
    public double throughput(int tasks) {
        return perTaskRate * tasks;
    }

    @Override
    public int peakTasks() {
        return Integer.MAX_VALUE;
    }

    @Override
    public double ceilingRate() {
        return Double.POSITIVE_INFINITY;
    }
}
