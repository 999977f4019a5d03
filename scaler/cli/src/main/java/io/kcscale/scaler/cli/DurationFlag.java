package io.kcscale.scaler.cli;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A duration flag such as {@code 5s}, {@code 500ms}, {@code 2m} or plain seconds, in seconds. */
final class DurationFlag {

    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m)?");

    private DurationFlag() {}

    static double seconds(String flag, String value) {
        Matcher m = DURATION.matcher(value == null ? "" : value.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException(flag + " must be a duration such as 5s, 500ms or 2m, got " + value);
        }
        double n = Double.parseDouble(m.group(1));
        String unit = m.group(2) == null ? "s" : m.group(2);
        return switch (unit) {
            case "ms" -> n / 1000;
            case "m" -> n * 60;
            default -> n;
        };
    }
}
