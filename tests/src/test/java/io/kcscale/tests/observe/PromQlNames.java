package io.kcscale.tests.observe;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names a PromQL expression selects. Strings, label matchers, ranges, grouping label
 * lists and Grafana variables are blanked first; of the identifiers left, those followed by "(" are
 * functions or aggregations and a few are keywords: the rest are metric names.
 */
final class PromQlNames {

    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|`[^`]*`");
    private static final Pattern GRAFANA_VARIABLE = Pattern.compile("\\$\\{[^}]*}|\\$\\w+");
    private static final Pattern MATCHERS = Pattern.compile("\\{[^}]*}");
    private static final Pattern RANGE = Pattern.compile("\\[[^]]*]");
    private static final Pattern LABEL_LIST =
            Pattern.compile("\\b(?:by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    // a number or duration is one token, so "15m" never yields an identifier "m"
    private static final Pattern TOKEN = Pattern.compile("[0-9][0-9a-zA-Z_.]*|([a-zA-Z_:][a-zA-Z0-9_:]*)(\\s*\\()?");
    private static final Set<String> KEYWORDS = Set.of(
            "and",
            "or",
            "unless",
            "by",
            "without",
            "on",
            "ignoring",
            "group_left",
            "group_right",
            "bool",
            "offset",
            "atan2",
            "inf",
            "nan");
    // Grafana's label_values([metric,] label): the metric is PromQL, the label is not
    private static final Pattern LABEL_VALUES = Pattern.compile("^\\s*label_values\\((?:(.*),)?\\s*\\w+\\s*\\)\\s*$");

    private PromQlNames() {}

    static Set<String> of(String expr) {
        String s = STRING.matcher(expr).replaceAll(" ");
        s = GRAFANA_VARIABLE.matcher(s).replaceAll(" ");
        s = MATCHERS.matcher(s).replaceAll(" ");
        s = RANGE.matcher(s).replaceAll(" ");
        s = LABEL_LIST.matcher(s).replaceAll(" ");
        Set<String> names = new TreeSet<>();
        Matcher m = TOKEN.matcher(s);
        while (m.find()) {
            if (m.group(1) != null
                    && m.group(2) == null
                    && !KEYWORDS.contains(m.group(1).toLowerCase())) {
                names.add(m.group(1));
            }
        }
        return names;
    }

    /** The names a Grafana template variable's Prometheus query selects. */
    static Set<String> ofVariableQuery(String query) {
        Matcher m = LABEL_VALUES.matcher(query);
        if (!m.matches()) {
            return of(query);
        }
        return m.group(1) == null ? Set.of() : of(m.group(1));
    }
}
