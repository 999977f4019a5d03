package io.kcscale.scaler.input;

import java.math.BigDecimal;

/**
 * The one place where prediction inputs are checked, for the CLI and the REST API alike. Numbers
 * arrive as nullable doubles (null = not given) so that a missing, fractional or out-of-range
 * value gets a message naming its field instead of a parser's generic complaint. The overloads
 * with a {@code part} name a part of a field, e.g. "point 3: tasks" of {@code measurements}.
 */
public final class Inputs {

    private Inputs() {}

    /** Parses a number typed on the command line; "NaN", "Infinity" and "70d" are refused. */
    public static Double parse(String field, String text) {
        if (text == null) {
            return null;
        }
        try {
            return new BigDecimal(text.trim()).doubleValue();
        } catch (NumberFormatException e) {
            throw new InvalidInputException(field, "must be a number, got '" + text + "'");
        }
    }

    public static double positive(String field, Double value) {
        return positive(field, "", value);
    }

    public static double positive(String field, String part, Double value) {
        double v = required(field, part, value);
        if (!(v > 0)) {
            throw new InvalidInputException(field, part + "must be greater than 0, got " + Numbers.format(v, 6));
        }
        return v;
    }

    public static double positive(String field, Double value, double whenAbsent) {
        return value == null ? whenAbsent : positive(field, value);
    }

    public static double nonNegative(String field, Double value) {
        double v = required(field, "", value);
        if (v < 0) {
            throw new InvalidInputException(field, "must be 0 or more, got " + Numbers.format(v, 6));
        }
        return v;
    }

    /** A share of capacity: more than 0, at most 1. */
    public static double utilization(String field, Double value, double whenAbsent) {
        double v = value == null ? whenAbsent : required(field, "", value);
        if (!(v > 0 && v <= 1)) {
            throw new InvalidInputException(field, "must be more than 0 and at most 1, got " + Numbers.format(v, 6));
        }
        return v;
    }

    /** A share of an estimate, from 0 to 1 (0.04 is 4%). */
    public static double share(String field, Double value) {
        double v = required(field, "", value);
        if (!(v >= 0 && v <= 1)) {
            throw new InvalidInputException(
                    field, "must be a share from 0 to 1 (0.04 is 4%), got " + Numbers.format(v, 6));
        }
        return v;
    }

    /** A probability strictly between 0 and 1 (the 0 or 1 quantile of arrivals is meaningless or infinite). */
    public static double quantile(String field, Double value, double whenAbsent) {
        double v = value == null ? whenAbsent : required(field, "", value);
        if (!(v > 0 && v < 1)) {
            throw new InvalidInputException(
                    field, "must be between 0 and 1 (both excluded), got " + Numbers.format(v, 6));
        }
        return v;
    }

    /** A whole number from {@code min} to {@link Integer#MAX_VALUE}. */
    public static int count(String field, Double value, int min) {
        return count(field, "", value, min);
    }

    public static int count(String field, String part, Double value, int min) {
        double v = required(field, part, value);
        if (v != Math.rint(v) || v < min || v > Integer.MAX_VALUE) {
            throw new InvalidInputException(
                    field,
                    part + "must be a whole number from " + min + " to " + Numbers.format(Integer.MAX_VALUE) + ", got "
                            + Numbers.format(v, 6));
        }
        return (int) v;
    }

    public static int count(String field, Double value, int min, int whenAbsent) {
        return value == null ? whenAbsent : count(field, value, min);
    }

    /** How messages name the limit of the arithmetic, the largest double; a unit may follow. */
    public static final String LARGEST = "1.8e308";

    public static final String LARGEST_IS = " (the largest number a prediction computes with)";

    /**
     * {@code value} when finite; otherwise inputs that are each in range overflowed together, and
     * {@code field} is refused with {@code problem} (which may name {@code related} inputs as {0}, {1}…).
     */
    public static double finite(double value, String field, String problem, String... related) {
        if (!Double.isFinite(value)) {
            throw new InvalidInputException(field, problem, related);
        }
        return value;
    }

    private static double required(String field, String part, Double value) {
        if (value == null) {
            throw new InvalidInputException(field, part + "is required");
        }
        if (!Double.isFinite(value)) {
            throw new InvalidInputException(field, part + "must be a finite number, got " + value);
        }
        return value;
    }
}
