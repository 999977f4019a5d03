package io.kcscale.scaler.checks;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * How much a finding matters, least first: {@code not-applicable} means the check does not apply to this
 * sink (an index check on a sink that writes no Elasticsearch index); {@code critical} means adding tasks
 * would not help.
 */
public enum Severity {
    NOT_APPLICABLE,
    OK,
    INFO,
    WARNING,
    CRITICAL;

    /** The name in JSON and in the CLI's report: {@code not-applicable}, {@code ok}, {@code info}, {@code warning}, {@code critical}. */
    @JsonValue
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public boolean atLeast(Severity other) {
        return compareTo(other) >= 0;
    }

    public static Severity worst(Severity a, Severity b) {
        return a.atLeast(b) ? a : b;
    }
}
