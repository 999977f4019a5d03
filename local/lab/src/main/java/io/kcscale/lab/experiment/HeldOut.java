package io.kcscale.lab.experiment;

import io.kcscale.scaler.input.InvalidInputException;
import io.kcscale.scaler.predict.Measurement;
import io.kcscale.scaler.predict.TaskPrediction;
import io.kcscale.scaler.predict.TasksRequest;
import io.kcscale.scaler.predict.TasksResult;
import io.kcscale.scaler.predict.UniversalScalabilityLaw;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Whether {@code predict tasks} earns trust: the model it fits to some measured task counts, asked about
 * task counts it did not see, against what those counts measured; and the decision a user would have
 * taken from it. Pure: the measurements are given.
 */
public final class HeldOut {

    /** The accuracy the predictions aim at on every held-out point. */
    public static final double GOAL_PERCENT = 10;

    private HeldOut() {}

    /** A task count and the highest rate it sustained, records/s. */
    public record Measured(int tasks, double sustainedRate) {}

    /**
     * @param predicted    null when {@code predict tasks} refused the fit points
     * @param errorPercent (predicted − measured) / measured × 100: positive when the prediction promised too much; null when refused
     */
    public record Point(int tasks, Double predicted, double measured, Double errorPercent) {}

    /**
     * What a user would have done: asked {@code predict tasks} for {@code targetRate} at its default headroom,
     * and run {@code recommendedTasks}. {@code measuredRate} is what that count sustained when it is a held-out count
     * (null when it is a fit count, was not measured, or no count reaches the target); {@code held} whether it
     * sustained the target (null: not a held-out measurement).
     *
     * @param interval the fit's interval for the rate at the recommended count, when the fit has one
     */
    public record Decision(
            double targetRate,
            Integer recommendedTasks,
            Double measuredRate,
            Boolean held,
            TasksResult.Interval interval) {}

    /**
     * @param model        "linear" or "usl", as {@code predict tasks} chose from the fit points; null when it refused them
     * @param perTaskRate  the model's rate for one task; null when refused
     * @param usl          the fitted law, null for a linear model
     * @param decision     null when refused
     * @param assumptions  what the prediction rests on, as {@code predict tasks} says it
     * @param refusal      why {@code predict tasks} refused the fit points (the validation then fails); null when it predicted
     */
    public record Report(
            List<Measured> fit,
            String model,
            Double perTaskRate,
            TasksResult.Usl usl,
            List<Point> points,
            Decision decision,
            List<String> assumptions,
            String refusal) {

        /** The largest |error| over the held-out points; null when the fit was refused. */
        public Double worstErrorPercent() {
            return refusal != null
                    ? null
                    : points.stream()
                            .mapToDouble(p -> Math.abs(p.errorPercent()))
                            .max()
                            .orElse(0);
        }

        /** A refused fit predicts nothing, so it meets no goal. */
        public boolean goalMet() {
            return refusal == null && worstErrorPercent() <= GOAL_PERCENT;
        }
    }

    /**
     * Fits on {@code fit}, predicts every count of {@code check}, and takes the decision for the rate the
     * largest held-out count is predicted to carry at the default headroom: its recommendation is that count,
     * so the measurement says whether it held.
     *
     * @throws IllegalArgumentException when a point sustained nothing (no model fits a zero) or a count is in both lists
     */
    public static Report evaluate(List<Measured> fit, List<Measured> check) {
        if (fit.isEmpty() || check.isEmpty()) {
            throw new IllegalArgumentException("a held-out check needs fit points and check points");
        }
        for (Measured m : fit) {
            if (!(m.sustainedRate() > 0)) {
                throw new IllegalArgumentException(m.tasks() + " task(s) sustained no rate: nothing to fit");
            }
            if (check.stream().anyMatch(c -> c.tasks() == m.tasks())) {
                throw new IllegalArgumentException(
                        m.tasks() + " task(s) is both a fit and a check point: a held-out point must be unseen");
            }
        }
        List<Measurement> measurements = fit.stream()
                .map(m -> new Measurement((double) m.tasks(), m.sustainedRate()))
                .toList();
        TasksResult probe;
        try {
            probe = predict(measurements, 1);
        } catch (InvalidInputException e) {
            // what predict tasks would tell the user; every held-out point is still reported with what it measured
            return new Report(
                    List.copyOf(fit),
                    null,
                    null,
                    null,
                    check.stream()
                            .map(c -> new Point(c.tasks(), null, c.sustainedRate(), null))
                            .toList(),
                    null,
                    List.of(),
                    e.getMessage());
        }
        List<Point> points = new ArrayList<>();
        for (Measured c : check) {
            double predicted = throughput(probe, c.tasks());
            points.add(new Point(
                    c.tasks(),
                    predicted,
                    c.sustainedRate(),
                    c.sustainedRate() > 0
                            ? (predicted - c.sustainedRate()) / c.sustainedRate() * 100
                            : Double.POSITIVE_INFINITY));
        }
        int largest = check.stream().mapToInt(Measured::tasks).max().orElseThrow();
        double target = Math.floor(TaskPrediction.DEFAULT_UTILIZATION * throughput(probe, largest));
        TasksResult answer = predict(measurements, target);
        Integer recommended = answer.recommendedTasks();
        // judged on held-out counts only: a fit point agrees with the model by construction
        Optional<Measured> run = check.stream()
                .filter(c -> recommended != null && c.tasks() == recommended)
                .findFirst();
        Decision decision = new Decision(
                target,
                recommended,
                run.map(Measured::sustainedRate).orElse(null),
                run.map(m -> m.sustainedRate() >= target).orElse(null),
                answer.intervals() == null ? null : answer.intervals().sustainedRate());
        return new Report(
                List.copyOf(fit),
                answer.model(),
                answer.perTaskRate(),
                answer.usl(),
                List.copyOf(points),
                decision,
                answer.assumptions(),
                null);
    }

    private static TasksResult predict(List<Measurement> measurements, double target) {
        return TaskPrediction.predict(new TasksRequest(target, null, measurements, null, null, null, null, null));
    }

    /** What the answer's model says {@code tasks} sustain: the fitted law, or the per-task rate times the count. */
    static double throughput(TasksResult answer, int tasks) {
        TasksResult.Usl usl = answer.usl();
        return usl == null
                ? answer.perTaskRate() * tasks
                : new UniversalScalabilityLaw(usl.lambda(), usl.sigma(), usl.kappa()).throughput(tasks);
    }
}
