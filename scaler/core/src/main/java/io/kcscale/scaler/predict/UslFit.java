package io.kcscale.scaler.predict;

import java.util.Arrays;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresBuilder;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresOptimizer;
import org.apache.commons.math3.fitting.leastsquares.LevenbergMarquardtOptimizer;
import org.apache.commons.math3.fitting.leastsquares.MultivariateJacobianFunction;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.RealMatrix;
import org.apache.commons.math3.linear.RealVector;
import org.apache.commons.math3.util.Pair;

/**
 * The Universal Scalability Law fitted to measured (tasks, throughput) points by Levenberg–Marquardt
 * least squares, with how well it fits (R², 1 = every point on the curve).
 */
public record UslFit(UniversalScalabilityLaw law, double rSquared) {

    /** Three parameters need three distinct task counts to be determined. */
    public static final int MINIMUM_TASK_COUNTS = 3;

    /** A refit that starts at the fit it resamples converges in a few steps, or wanders and is left out. */
    private static final int REFIT_ITERATIONS = 100;

    private static final int FIT_ITERATIONS = 10_000;
    /** The least λ the search may try: λ at or below zero is no rate. */
    private static final double LAMBDA_FLOOR = Double.MIN_NORMAL;

    public static UslFit of(double[] tasks, double[] throughput) {
        if (tasks.length != throughput.length || Arrays.stream(tasks).distinct().count() < MINIMUM_TASK_COUNTS) {
            throw new IllegalArgumentException("a USL fit needs " + MINIMUM_TASK_COUNTS + " distinct task counts");
        }
        return fit(tasks, throughput, new double[] {singleTaskRateGuess(tasks, throughput), 0, 0}, FIT_ITERATIONS);
    }

    /**
     * The law fitted to a bootstrap's resample of the points {@code fitted} was fitted to, started from
     * {@code fitted}'s parameters, so that hundreds of refits cost what a few cold fits do.
     *
     * @throws org.apache.commons.math3.exception.MathIllegalStateException when it does not converge within a few steps
     */
    static UslFit refit(double[] tasks, double[] throughput, UniversalScalabilityLaw fitted) {
        return fit(tasks, throughput, new double[] {fitted.lambda(), fitted.sigma(), fitted.kappa()}, REFIT_ITERATIONS);
    }

    private static UslFit fit(double[] tasks, double[] throughput, double[] start, int iterations) {
        LeastSquaresOptimizer.Optimum optimum = new LevenbergMarquardtOptimizer()
                .optimize(new LeastSquaresBuilder()
                        .start(start)
                        .model(model(tasks))
                        .target(throughput)
                        // σ and κ below 0 would mean tasks speed each other up: clamp to the physical range
                        .parameterValidator(p -> new ArrayRealVector(new double[] {
                            Math.max(p.getEntry(0), LAMBDA_FLOOR),
                            Math.max(p.getEntry(1), 0),
                            Math.max(p.getEntry(2), 0)
                        }))
                        .maxEvaluations(iterations)
                        .maxIterations(iterations)
                        .build());
        RealVector p = optimum.getPoint();
        return new UslFit(
                new UniversalScalabilityLaw(p.getEntry(0), p.getEntry(1), p.getEntry(2)),
                rSquared(optimum.getResiduals(), throughput));
    }

    /**
     * Whether {@code law} describes tasks that do work: the fit keeps λ above zero only by holding it at the
     * smallest normal double, a bound of the search, not a rate any task sustains.
     */
    static boolean physical(UniversalScalabilityLaw law) {
        return law.lambda() > LAMBDA_FLOOR && Double.isFinite(law.lambda());
    }

    /** X(N) and its partial derivatives in λ, σ and κ at every measured N. */
    private static MultivariateJacobianFunction model(double[] tasks) {
        return point -> {
            double lambda = point.getEntry(0);
            double sigma = point.getEntry(1);
            double kappa = point.getEntry(2);
            RealVector value = new ArrayRealVector(tasks.length);
            RealMatrix jacobian = new Array2DRowRealMatrix(tasks.length, 3);
            for (int i = 0; i < tasks.length; i++) {
                double n = tasks[i];
                double denominator = 1 + sigma * (n - 1) + kappa * n * (n - 1);
                double x = lambda * n / denominator;
                value.setEntry(i, x);
                jacobian.setEntry(i, 0, n / denominator);
                jacobian.setEntry(i, 1, -x * (n - 1) / denominator);
                jacobian.setEntry(i, 2, -x * n * (n - 1) / denominator);
            }
            return new Pair<>(value, jacobian);
        };
    }

    /** λ starts at the best per-task rate seen at the smallest task count, where contention is least. */
    private static double singleTaskRateGuess(double[] tasks, double[] throughput) {
        double fewest = Arrays.stream(tasks).min().orElseThrow();
        double best = 0;
        for (int i = 0; i < tasks.length; i++) {
            if (tasks[i] == fewest) {
                best = Math.max(best, throughput[i] / tasks[i]);
            }
        }
        return best;
    }

    /** R² is the same at any scale: dividing by the largest throughput keeps squares of rates near 1e308 finite. */
    private static double rSquared(RealVector residuals, double[] observed) {
        double largest = Arrays.stream(observed).map(Math::abs).max().orElseThrow();
        double scale = largest == 0 ? 1 : largest;
        double[] x = Arrays.stream(observed).map(v -> v / scale).toArray();
        double mean = Arrays.stream(x).average().orElseThrow();
        double total = Arrays.stream(x).map(v -> (v - mean) * (v - mean)).sum();
        RealVector r = residuals.mapDivide(scale);
        double unexplained = r.dotProduct(r);
        return total == 0 ? (unexplained == 0 ? 1 : 0) : 1 - unexplained / total;
    }
}
