package io.kcscale.scaler.predict;

/**
 * Gunther's Universal Scalability Law, X(N) = λN / (1 + σ(N−1) + κN(N−1)): λ is the rate of one
 * task, σ the contention (a serial share, e.g. one busy shard) and κ the coherency cost (tasks
 * slowing each other). With κ > 0 throughput peaks at N* = sqrt((1−σ)/κ) and falls beyond it.
 */
public record UniversalScalabilityLaw(double lambda, double sigma, double kappa) implements ScalingModel {

    @Override
    public double throughput(int tasks) {
        double n = tasks;
        return lambda * n / (1 + sigma * (n - 1) + kappa * n * (n - 1));
    }

    @Override
    public int peakTasks() {
        if (sigma >= 1) {
            return 1; // a fully serial sink gains nothing from a second task
        }
        if (kappa == 0) {
            return Integer.MAX_VALUE;
        }
        double optimum = Math.sqrt((1 - sigma) / kappa);
        if (optimum >= Integer.MAX_VALUE) {
            return Integer.MAX_VALUE;
        }
        // X is unimodal, so the best whole count is one of the two around N*
        int below = Math.max(1, (int) Math.floor(optimum));
        int above = below + 1;
        return throughput(above) > throughput(below) ? above : below;
    }

    @Override
    public double ceilingRate() {
        if (sigma < 1 && kappa == 0) {
            return sigma == 0 ? Double.POSITIVE_INFINITY : lambda / sigma; // approached, never reached
        }
        return throughput(peakTasks());
    }
}
