package io.kcscale.scaler.input;

import java.math.BigDecimal;
import java.math.MathContext;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.Locale;

/** How every output (CLI text, assumptions, chart labels) writes a number: grouped, at most 2 decimals. */
public final class Numbers {

    /** Like JavaScript's number to string: up to 1e21 written out in full, e.g. the largest lag 9,223,372,036,854,775,807. */
    private static final double SCIENTIFIC_FROM = 1e21;

    private Numbers() {}

    public static String format(double value) {
        return format(value, 2);
    }

    public static String format(double value, int maxDecimals) {
        if (!Double.isFinite(value)) {
            return Double.isNaN(value) ? "NaN" : (value > 0 ? "∞" : "-∞");
        }
        // DecimalFormat is not thread-safe, and the API serves requests on several threads
        DecimalFormat format = new DecimalFormat("#,##0", DecimalFormatSymbols.getInstance(Locale.ROOT));
        format.setMaximumFractionDigits(maxDecimals);
        // values too small for maxDecimals would print as 0, and values of 1e21 and more as dozens of digits:
        // three significant digits instead, in scientific notation when very small or large (1.5E+307, 4.9E-324)
        if (value != 0 && (Math.abs(value) < Math.pow(10, -maxDecimals) || Math.abs(value) >= SCIENTIFIC_FROM)) {
            return BigDecimal.valueOf(value)
                    .round(new MathContext(3))
                    .stripTrailingZeros()
                    .toString();
        }
        return format.format(value);
    }
}
