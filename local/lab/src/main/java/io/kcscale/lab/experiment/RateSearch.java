package io.kcscale.lab.experiment;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.DoubleFunction;
import java.util.function.Predicate;

/**
 * Bisection on the source rate between a rate assumed sustainable and one assumed not: each trial
 * halves the bracket, so a handful of trials pins the sustained rate to a few percent, where a linear
 * ramp would need dozens. Pure: the trial is given.
 *
 * @param low        a rate taken as sustainable without a trial (tried, then halved, only when no trial was)
 * @param high       a rate taken as not sustainable (tried, then raised by half, only when every trial was)
 * @param trials     the most bisection trials
 * @param resolution stop once the bracket is narrower than this share of its top
 */
public record RateSearch(double low, double high, int trials, double resolution) {

    public RateSearch {
        if (!(low > 0 && high > low)) {
            throw new IllegalArgumentException("a rate search needs 0 < low < high, got " + low + " and " + high);
        }
        if (trials < 1) {
            throw new IllegalArgumentException("a rate search needs at least one trial, got " + trials);
        }
    }

    /** Trials beyond the bracket when it was wrong: below it, at its bottom, half, a quarter; above, its top and 1.5× twice. */
    static final int OUTSIDE_BRACKET = 3;

    private static final double RAISE = 1.5;

    /**
     * Runs trials at whole records/s until the bracket is narrow enough or the trials are spent. The
     * bracket comes from a measurement that may have been lucky or unlucky on a busy machine: when no
     * trial was sustained, tries {@code low} and halves it until one is; when every trial was, tries
     * {@code high} and raises it until one is not, up to {@link #OUTSIDE_BRACKET} more each way.
     */
    public <T> Result<T> run(DoubleFunction<T> trial, Predicate<T> sustained) {
        List<Tried<T>> tried = new ArrayList<>();
        double lo = low;
        double hi = high;
        Tried<T> best = null;
        boolean failed = false;
        while (tried.size() < trials && hi - lo > resolution * hi) {
            Tried<T> t = attempt(Math.round((lo + hi) / 2), trial, sustained);
            tried.add(t);
            if (t.sustained()) {
                lo = t.rate();
                best = t;
            } else {
                hi = t.rate();
                failed = true;
            }
        }
        double rate = low;
        for (int below = 0; best == null && below < OUTSIDE_BRACKET && rate >= 1; below++, rate /= 2) {
            Tried<T> t = attempt(Math.round(rate), trial, sustained);
            tried.add(t);
            best = t.sustained() ? t : null;
        }
        rate = high;
        for (int above = 0; !failed && above < OUTSIDE_BRACKET; above++, rate *= RAISE) {
            Tried<T> t = attempt(Math.round(rate), trial, sustained);
            tried.add(t);
            best = t.sustained() ? t : best;
            failed = !t.sustained();
        }
        return new Result<>(Optional.ofNullable(best), List.copyOf(tried));
    }

    private static <T> Tried<T> attempt(double rate, DoubleFunction<T> trial, Predicate<T> sustained) {
        T outcome = trial.apply(rate);
        return new Tried<>(rate, outcome, sustained.test(outcome));
    }

    /** One trial: its rate, what it measured, and whether that rate was sustained. */
    public record Tried<T>(double rate, T outcome, boolean sustained) {}

    /**
     * @param best  the highest sustained trial, empty when no rate tried was sustained
     * @param tried every trial, in the order run
     */
    public record Result<T>(Optional<Tried<T>> best, List<Tried<T>> tried) {

        /** Whether every rate tried was sustained: the best is then a lower bound of what the sink sustains. */
        public boolean lowerBound() {
            return tried.stream().allMatch(Tried::sustained);
        }

        /** The lowest rate tried that was not sustained, if any. */
        public Optional<Tried<T>> lowestFailure() {
            return tried.stream().filter(t -> !t.sustained()).min((a, b) -> Double.compare(a.rate(), b.rate()));
        }
    }
}
