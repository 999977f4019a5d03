package io.kcscale.lab.experiment;

import io.kcscale.scaler.checks.Finding;
import java.util.List;
import java.util.Locale;

/** The findings the checks raised before a run, one line each, as reports and the console show them. */
final class FindingsText {

    private FindingsText() {}

    static String lines(List<Finding> findings, String indent) {
        if (findings.isEmpty()) {
            return indent + "(none at warning or worse)\n";
        }
        StringBuilder out = new StringBuilder();
        for (Finding f : findings) {
            out.append(String.format(
                    Locale.ROOT, "%s%s %s: %s%n", indent, f.id(), f.severity().label(), f.title()));
        }
        return out.toString();
    }
}
