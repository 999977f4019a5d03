package io.kcscale.scaler.checks;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonValue;

/** How much a finding matters, least first: {@code critical} means adding tasks would not help. */
public enum Severity {
    OK, INFO, WARNING, CRITICAL;

    /** The name in JSON and in the CLI's report: {@code ok}, {@code info}, {@code warning}, {@code critical}. */
    @JsonValue
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public boolean atLeast(Severity other) {
        return compareTo(other) >= 0;
    }

    public static Severity worst(Severity a, Severity b) {
        return a.atLeast(b) ? a : b;
    }
}
