package io.kcscale.scaler.predict;

import java.math.BigDecimal;
import java.math.MathContext;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.Locale;

/** How every output (CLI text, assumptions, chart labels) writes a number: grouped, at most 2 decimals. */
public final class Numbers {

    private Numbers() {
    }

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
        // values too small for maxDecimals would print as 0: show them in scientific notation instead
        if (value != 0 && Math.abs(value) < Math.pow(10, -maxDecimals)) {
            return BigDecimal.valueOf(value).round(new MathContext(3)).stripTrailingZeros().toPlainString();
        }
        return format.format(value);
    }
}
