package io.kcscale.scaler.prometheus;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One sample line of Prometheus' text exposition: {@code name{label="value",...} value [timestamp]}. The one
 * reader of that format here, for the workers' exporters the scaler reads and for the lab's scrapes of the scaler
 * and of the bulk sink's trace. Label values keep their escapes undone ({@code \\}, {@code \"}, {@code \n}); a
 * trailing comma in the labels (the JMX exporter writes one) is allowed.
 *
 * @param labels in the line's order; empty for an unlabelled sample
 */
public record ExpositionSample(String name, Map<String, String> labels, double value) {

    private static final Pattern NAME = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");
    /** What Double.parseDouble should see: it would take "Infinity", hex and a trailing 'd' too. */
    private static final Pattern FLOAT = Pattern.compile("[-+]?(NaN|[0-9]*\\.?[0-9]+([eE][-+]?[0-9]+)?|[0-9]+\\.)");

    /** A line that is neither a sample, a comment nor blank. */
    public static final class Malformed extends IllegalArgumentException {
        private final String name;
        private final String problem;

        private Malformed(String name, String problem) {
            super(name == null ? problem : name + " has " + problem);
            this.name = name;
            this.problem = problem;
        }

        /** The sample's name when the line starts with a valid one (its value or labels are wrong), else empty. */
        public Optional<String> name() {
            return Optional.ofNullable(name);
        }

        /** What is wrong with the named sample, or with the line when it names none. */
        public String problem() {
            return problem;
        }
    }

    /**
     * The sample {@code line} holds; empty for a blank line or a comment.
     *
     * @throws Malformed saying what is wrong
     */
    public static Optional<ExpositionSample> parse(String line) {
        String l = line.strip();
        if (l.isEmpty() || l.startsWith("#")) {
            return Optional.empty();
        }
        int end = 0;
        while (end < l.length() && l.charAt(end) != '{' && !Character.isWhitespace(l.charAt(end))) {
            end++;
        }
        String name = l.substring(0, end);
        if (!NAME.matcher(name).matches()) {
            throw new Malformed(null, "not a sample line: \"" + excerpt(l) + "\"");
        }
        Map<String, String> labels = new LinkedHashMap<>();
        int at = end;
        if (at < l.length() && l.charAt(at) == '{') {
            at = labels(l, at + 1, labels, name);
        }
        String rest = l.substring(at).strip();
        String number = rest.split("\\s+", 2)[0];
        try {
            return Optional.of(new ExpositionSample(name, Collections.unmodifiableMap(labels), number(number)));
        } catch (NumberFormatException e) {
            throw new Malformed(name, "a value that is no number: \"" + excerpt(number) + "\"");
        }
    }

    /** A value or an {@code le} bound as the format writes it: a float, {@code NaN}, {@code +Inf} or {@code -Inf}. */
    public static double number(String text) {
        return switch (text) {
            case "+Inf", "Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            default -> {
                if (!FLOAT.matcher(text).matches()) {
                    throw new NumberFormatException(text);
                }
                yield Double.parseDouble(text);
            }
        };
    }

    /** Reads {@code k="v",...} from {@code from} up to its closing brace into {@code into}; where the value starts. */
    private static int labels(String l, int from, Map<String, String> into, String name) {
        int i = from;
        while (true) {
            while (i < l.length() && (l.charAt(i) == ',' || l.charAt(i) == ' ')) {
                i++;
            }
            if (i < l.length() && l.charAt(i) == '}') {
                return i + 1;
            }
            int eq = l.indexOf('=', i);
            if (eq < 0 || eq + 1 >= l.length() || l.charAt(eq + 1) != '"') {
                throw new Malformed(name, "labels that do not parse: \"" + excerpt(l.substring(from - 1)) + "\"");
            }
            String key = l.substring(i, eq).strip();
            StringBuilder value = new StringBuilder();
            int j = eq + 2;
            for (; j < l.length() && l.charAt(j) != '"'; j++) {
                char c = l.charAt(j);
                if (c == '\\' && j + 1 < l.length()) {
                    char escaped = l.charAt(++j);
                    value.append(escaped == 'n' ? '\n' : escaped);
                } else {
                    value.append(c);
                }
            }
            if (j >= l.length()) {
                throw new Malformed(name, "a label value without its closing quote");
            }
            into.put(key, value.toString());
            i = j + 1;
        }
    }

    /** A part of a line fit to quote in one line of an error: control characters replaced, at most 60 characters. */
    static String excerpt(String s) {
        String one = s.replaceAll("\\p{Cntrl}", "?");
        return one.length() > 60 ? one.substring(0, 60) + "…" : one;
    }
}
