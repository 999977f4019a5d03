package io.kcscale.lab.experiment;

import io.kcscale.scaler.chart.LineChart;
import java.util.DoubleSummaryStatistics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/** The sweep's three charts, by file name: throughput vs tasks, per-task rate vs tasks, lag over time. */
final class SweepCharts {

    static final String THROUGHPUT = "throughput-vs-tasks.svg";
    static final String PER_TASK = "per-task-rate-vs-tasks.svg";
    static final String LAG = "lag-over-time.svg";

    private SweepCharts() {}

    static Map<String, String> draw(Sweep.Result result) {
        List<Sweep.Row> rows = result.rows();
        String mode = result.plan().sinkMode().flagValue();
        Map<String, String> files = new LinkedHashMap<>();
        double[] tasks = rows.stream().mapToDouble(Sweep.Row::tasks).toArray();
        double onePerTask = rows.get(0).sustainedRate() / rows.get(0).tasks();
        files.put(
                THROUGHPUT,
                new LineChart(
                                "Throughput vs tasks (" + mode + " sink, "
                                        + result.plan().partitions() + " partitions)",
                                "sink tasks",
                                "records/s")
                        .wholeNumbersOnX()
                        .add(series(
                                "sustained rate (lag bounded, source running)",
                                0,
                                false,
                                tasks,
                                rows,
                                Sweep.Row::sustainedRate))
                        .add(series(
                                "full speed (draining a backlog, source stopped)",
                                1,
                                true,
                                tasks,
                                rows,
                                r -> r.fullSpeed().throughput().total()))
                        .add(new LineChart.Series(
                                "linear: tasks × the first count's per-task rate",
                                "#999999",
                                LineChart.DASHED,
                                LineChart.Shape.LINE,
                                tasks,
                                rows.stream()
                                        .mapToDouble(r -> r.tasks() * onePerTask)
                                        .toArray()))
                        .svg());
        files.put(
                PER_TASK,
                new LineChart("Per-task rate vs tasks (" + mode + " sink)", "sink tasks", "records/s per task")
                        .wholeNumbersOnX()
                        .add(series(
                                "sustained rate ÷ tasks", 0, false, tasks, rows, r -> r.sustainedRate() / r.tasks()))
                        .add(series(
                                "full speed ÷ tasks",
                                1,
                                true,
                                tasks,
                                rows,
                                r -> r.fullSpeed().throughput().total() / r.tasks()))
                        .add(series(
                                "busiest task at the sustained rate", 2, false, tasks, rows, r -> taskExtreme(r, true)))
                        .add(series(
                                "least busy task at the sustained rate",
                                3,
                                false,
                                tasks,
                                rows,
                                r -> taskExtreme(r, false)))
                        .svg());
        files.put(LAG, lag(rows, mode));
        return files;
    }

    /** Per task count: the lag through the highest sustained trial (solid) and the lowest unsustained one (dashed). */
    private static String lag(List<Sweep.Row> rows, String mode) {
        LineChart chart = new LineChart(
                "Sink group lag over a trial (" + mode + " sink)",
                "seconds since the source rate was set",
                "lag (records)");
        rows.stream()
                .flatMap(r -> r.search().tried().stream())
                .findFirst()
                .ifPresent(t -> chart.mark(
                        new LineChart.Marker("hold starts", t.outcome().holdStartSeconds())));
        for (int i = 0; i < rows.size(); i++) {
            Sweep.Row r = rows.get(i);
            String color = Palette.color(i);
            for (Optional<TrialResult> t : List.of(r.sustained(), r.lowestFailure())) {
                t.ifPresent(trial -> chart.add(new LineChart.Series(
                        String.format(
                                Locale.ROOT,
                                "%d task(s) at %.0f/s: %s",
                                r.tasks(),
                                trial.rate(),
                                trial.sustained() ? "sustained" : "not sustained"),
                        color,
                        trial.sustained() ? null : LineChart.DASHED,
                        LineChart.Shape.LINE,
                        trial.lag().stream().mapToDouble(LagSample::seconds).toArray(),
                        trial.lag().stream().mapToDouble(LagSample::lag).toArray())));
            }
        }
        return chart.svg();
    }

    private static LineChart.Series series(
            String name,
            int color,
            boolean dashed,
            double[] tasks,
            List<Sweep.Row> rows,
            ToDoubleFunction<Sweep.Row> value) {
        return new LineChart.Series(
                name,
                Palette.color(color),
                dashed ? LineChart.DASHED : null,
                LineChart.Shape.POINTS,
                tasks,
                rows.stream().mapToDouble(value).toArray());
    }

    private static double taskExtreme(Sweep.Row r, boolean busiest) {
        DoubleSummaryStatistics perTask = r.sustained().map(t -> t.throughput().perTask()).orElse(List.of(0.0)).stream()
                .mapToDouble(Double::doubleValue)
                .summaryStatistics();
        return busiest ? perTask.getMax() : perTask.getMin();
    }
}
