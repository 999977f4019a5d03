package io.kcscale.scaler.predict;

import io.kcscale.scaler.chart.LineChart;
import io.kcscale.scaler.input.Numbers;
import java.util.function.DoubleUnaryOperator;

/**
 * The chart of {@code predict tasks --plot}: tasks needed against target rate, from no load to a
 * quarter beyond the target, for linear scaling, the recommended utilization, the Poisson burst
 * and (when measurements were fitted) the Universal Scalability Law.
 */
public final class TasksChart {

    private static final int SAMPLES = 200;

    private TasksChart() {}

    public static String svg(TasksRequest request) {
        TasksResult result = TaskPrediction.predict(request); // validates the request, gives the settings
        ScalingModel model =
                ModelChoice.of(request.perTaskRate(), request.measurements()).model();
        double end = result.targetRate() * 1.25;
        double[] rates = new double[SAMPLES];
        for (int i = 0; i < SAMPLES; i++) {
            rates[i] = end * (i + 1) / SAMPLES;
        }
        String per = Numbers.format(result.perTaskRate()) + "/s per task";
        LineChart chart = new LineChart(
                        "Tasks needed for a target rate (" + per + ")", "Target rate (records/s)", "Tasks needed")
                .wholeNumbersOnY();
        chart.add(new LineChart.Series(
                "linear: rate / " + per,
                "#1f77b4",
                null,
                LineChart.Shape.STEPS,
                rates,
                curve(new LinearScaling(result.perTaskRate()), rates, rate -> rate)));
        if (result.usl() != null) {
            chart.add(new LineChart.Series(
                    "Universal Scalability Law fit",
                    "#2ca02c",
                    null,
                    LineChart.Shape.STEPS,
                    rates,
                    curve(model, rates, rate -> rate)));
        }
        chart.add(new LineChart.Series(
                "recommended: " + Numbers.format(result.utilization() * 100) + "% utilization",
                "#ff7f0e",
                "8 5",
                LineChart.Shape.STEPS,
                rates,
                curve(model, rates, rate -> rate / result.utilization())));
        TasksResult.Burst burst = result.burst();
        if (burst != null) {
            chart.add(new LineChart.Series(
                    "burst: Poisson p" + Numbers.format(burst.quantile() * 100, 4) + " in "
                            + Numbers.format(burst.burstWindowSeconds()) + " s",
                    "#d62728",
                    "3 4",
                    LineChart.Shape.STEPS,
                    rates,
                    curve(
                            model,
                            rates,
                            rate -> PoissonBurst.of(rate, burst.burstWindowSeconds(), burst.quantile())
                                    .ratePerSecond(burst.burstWindowSeconds()))));
        }
        chart.mark(new LineChart.Marker("target " + Numbers.format(result.targetRate()) + "/s", result.targetRate()));
        Double ceiling = result.usl() == null ? null : result.usl().ceilingRate();
        if (ceiling != null && ceiling < end) {
            chart.mark(new LineChart.Marker("USL ceiling " + Numbers.format(ceiling) + "/s", ceiling));
        }
        return chart.svg();
    }

    /** Tasks the model needs at each target rate, for the rate {@code needed} maps it to; NaN where out of reach. */
    private static double[] curve(ScalingModel model, double[] rates, DoubleUnaryOperator needed) {
        double[] tasks = new double[rates.length];
        for (int i = 0; i < rates.length; i++) {
            tasks[i] = model.tasksFor(needed.applyAsDouble(rates[i])).stream()
                    .asDoubleStream()
                    .findFirst()
                    .orElse(Double.NaN);
        }
        return tasks;
    }
}
