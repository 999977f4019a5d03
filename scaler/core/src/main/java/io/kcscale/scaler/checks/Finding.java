package io.kcscale.scaler.checks;

import java.util.Map;

/**
 * What one check found: always reported, {@code ok} included, with the figures it judged by.
 *
 * @param id       the check's id, part of the interface (e.g. {@code key-cardinality})
 * @param evidence the figures behind the verdict, by name, in a stable order
 * @param advice   what to do about it; for an {@code ok} finding, what keeps it so
 */
public record Finding(String id, Severity severity, String title, Map<String, Object> evidence, String advice) {}
