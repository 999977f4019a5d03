package io.kcscale.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A file from {@code configs/} with {@code ${NAME}} placeholders: the same syntax {@code envsubst}
 * fills in the compose stack, so both modes read one source of truth.
 */
public final class ConfigTemplate {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Z0-9_]+)}");

    private final Path file;
    private final String text;

    private ConfigTemplate(Path file, String text) {
        this.file = file;
        this.text = text;
    }

    public static ConfigTemplate load(Path file) {
        try {
            return new ConfigTemplate(file, Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read config template " + file, e);
        }
    }

    /** The text with every placeholder replaced; a placeholder without a value is an error, never "". */
    public String render(Map<String, String> values) {
        TreeSet<String> missing = new TreeSet<>();
        Matcher m = PLACEHOLDER.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = values.get(m.group(1));
            if (value == null) {
                missing.add(m.group(1));
                value = m.group();
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("config template " + file + " needs values for " + missing);
        }
        return out.toString();
    }
}
