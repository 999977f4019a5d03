package io.kcscale.scaler.cli;

/** The command-line flag for an input field: {@code targetRate} is {@code --target-rate}. */
final class Flags {

    private Flags() {
    }

    static String of(String field) {
        return "--" + field.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(java.util.Locale.ROOT);
    }
}
