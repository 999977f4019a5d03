package io.kcscale.scaler.act;

import io.kcscale.scaler.checks.Finding;
import io.kcscale.scaler.checks.Severity;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/** What a scale does with the checks' findings: a critical one blocks a scale-up unless forced; warnings go in its answer. Pure. */
public final class CheckGate {

    private CheckGate() {}

    /** Why a scale from {@code before} to {@code tasks} tasks may not go ahead, if a critical finding says adding tasks would not help. */
    public static Optional<String> refusal(List<Finding> findings, int before, int tasks, boolean force) {
        List<Finding> critical =
                findings.stream().filter(f -> f.severity() == Severity.CRITICAL).toList();
        if (force || tasks <= before || critical.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("adding tasks would not help: "
                + critical.stream()
                        .map(f -> f.id() + ": " + f.title() + ". " + f.advice())
                        .collect(Collectors.joining(" | "))
                + " Pass force to scale anyway.");
    }

    /** One line per finding at warning or worse, for the scale's answer. */
    public static List<String> warnings(List<Finding> findings) {
        return findings.stream()
                .filter(f -> f.severity().atLeast(Severity.WARNING))
                .map(f -> f.id() + " (" + f.severity().label() + "): " + f.title())
                .toList();
    }
}
