package io.kcscale.local.experiment;

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
 * @param low        a rate taken as sustainable without a trial (tried, and halved, only when no trial was)
 * @param high       a rate taken as not sustainable
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

    /** Trials below the bracket when none in it was sustained: at its bottom, then at half, then a quarter. */
    static final int BELOW_BRACKET = 3;

    /**
     * Runs trials at whole records/s until the bracket is narrow enough or the trials are spent; if
     * none was sustained, tries {@code low}, then halves it, up to {@link #BELOW_BRACKET} more.
     */
    public <T> Result<T> run(DoubleFunction<T> trial, Predicate<T> sustained) {
        List<Tried<T>> tried = new ArrayList<>();
        double lo = low;
        double hi = high;
        Tried<T> best = null;
        while (tried.size() < trials && hi - lo > resolution * hi) {
            Tried<T> t = attempt(Math.round((lo + hi) / 2), trial, sustained);
            tried.add(t);
            if (t.sustained()) {
                lo = t.rate();
                best = t;
            } else {
                hi = t.rate();
            }
        }
        // the bracket came from a measurement that may have been lucky: below it, halve until a rate holds
        double rate = low;
        for (int below = 0; best == null && below < BELOW_BRACKET && rate >= 1; below++, rate /= 2) {
            Tried<T> t = attempt(Math.round(rate), trial, sustained);
            tried.add(t);
            best = t.sustained() ? t : null;
        }
        return new Result<>(Optional.ofNullable(best), List.copyOf(tried));
    }

    private static <T> Tried<T> attempt(double rate, DoubleFunction<T> trial, Predicate<T> sustained) {
        T outcome = trial.apply(rate);
        return new Tried<>(rate, outcome, sustained.test(outcome));
    }

    /** One trial: its rate, what it measured, and whether that rate was sustained. */
    public record Tried<T>(double rate, T outcome, boolean sustained) {
    }

    /**
     * @param best  the highest sustained trial, empty when no rate tried was sustained
     * @param tried every trial, in the order run
     */
    public record Result<T>(Optional<Tried<T>> best, List<Tried<T>> tried) {

        /** The lowest rate tried that was not sustained, if any. */
        public Optional<Tried<T>> lowestFailure() {
            return tried.stream().filter(t -> !t.sustained()).min((a, b) -> Double.compare(a.rate(), b.rate()));
        }
    }
}
