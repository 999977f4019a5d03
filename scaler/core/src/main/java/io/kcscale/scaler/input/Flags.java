package io.kcscale.scaler.input;

/** The command-line flag for an input field: {@code targetRate} is {@code --target-rate}. */
public final class Flags {

    private Flags() {}

    public static String of(String field) {
        return "--" + field.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(java.util.Locale.ROOT);
    }
}
