package io.kcscale.scaler.common;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/** A secret given as a value or as a file holding it: the service's settings and the CLI's token read it alike. */
public final class Secret {

    /** How a secret's file variant is named: {@code token} → {@code token.file}. */
    public static final String FILE_SUFFIX = ".file";

    private Secret() {}

    /**
     * A secret's value: the key's own, else the content of the file {@code <key>.file} names (without the
     * line break an editor or {@code echo} leaves at its end); none when neither is set.
     *
     * @throws IllegalArgumentException when that file cannot be read or is empty
     */
    public static Optional<String> of(Map<String, String> v, String key) {
        String value = v.get(key);
        if (value != null && !value.isBlank()) {
            return Optional.of(value);
        }
        String file = v.get(key + FILE_SUFFIX);
        if (file == null || file.isBlank()) {
            return Optional.empty();
        }
        try {
            String content = Files.readString(Path.of(file.strip()), StandardCharsets.UTF_8)
                    .strip();
            if (content.isEmpty()) {
                throw new IllegalArgumentException(key + FILE_SUFFIX + " " + file + " is empty");
            }
            return Optional.of(content);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + key + FILE_SUFFIX + " " + file + ": " + e.getMessage());
        }
    }
}
