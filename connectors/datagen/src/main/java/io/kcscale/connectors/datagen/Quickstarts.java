package io.kcscale.connectors.datagen;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The built-in schemas selectable with {@code quickstart}, stored as resources beside this class. */
final class Quickstarts {

    /** Every quickstart this build ships; each has a resource {@code quickstarts/<name>.avsc}. */
    static final List<String> NAMES = List.of("stock_trades", "users");

    private Quickstarts() {}

    /** The schema text of a quickstart, matched case-insensitively as kafka-connect-datagen does. */
    static Optional<String> schemaText(String name) {
        String normalized = name.trim().toLowerCase(Locale.ROOT);
        if (!NAMES.contains(normalized)) {
            return Optional.empty();
        }
        String resource = "quickstarts/" + normalized + ".avsc";
        try (InputStream in = Quickstarts.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("quickstart resource missing from the jar: " + resource);
            }
            return Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
