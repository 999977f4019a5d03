package io.kcscale.tests.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kcscale.tests.fixtures.RepositoryFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Where a newcomer looks for a thing is where it is: each Java package of the main sources lives in one module, and
 * the scaler's ports (the interfaces the composition root hands the parts) are all in the core's {@code ports}.
 */
class PackageLayoutTest {

    private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
    private static final Pattern TOP_LEVEL_INTERFACE =
            Pattern.compile("^(?:@\\w+\\s+)*public interface (\\w+)", Pattern.MULTILINE);
    private static final Path HOME = RepositoryFiles.home();

    @Test
    void eachPackageLivesInOneModule() {
        Map<String, Set<String>> modulesByPackage = new TreeMap<>();
        for (Path file : mainSources(HOME)) {
            String module = HOME.relativize(file).toString().replaceFirst("/src/main/java/.*", "");
            modulesByPackage
                    .computeIfAbsent(packageOf(file), p -> new TreeSet<>())
                    .add(module);
        }
        Map<String, Set<String>> split = new TreeMap<>(modulesByPackage);
        split.values().removeIf(modules -> modules.size() == 1);
        assertEquals(Map.of(), split, "packages whose classes are spread over modules: give each its own name");
    }

    @Test
    void theServiceDeclaresNoPortOfItsOwn() {
        Path service = HOME.resolve("scaler/service/src/main/java");
        Set<String> interfaces = new TreeSet<>();
        for (Path file : mainSources(service)) {
            Matcher m = TOP_LEVEL_INTERFACE.matcher(read(file));
            // the API's route table is how its own routes are listed, not a port handed in
            if (m.find() && !packageOf(file).equals("io.kcscale.scaler.api")) {
                interfaces.add(packageOf(file) + "." + m.group(1));
            }
        }
        assertEquals(Set.of(), interfaces, "a port belongs in scaler/core's io.kcscale.scaler.ports");
    }

    private static List<Path> mainSources(Path root) {
        try (Stream<Path> all = Files.walk(root)) {
            return all.filter(p -> p.toString().endsWith(".java"))
                    .filter(p -> p.toString().contains("/src/main/java/"))
                    .filter(p -> !p.toString().contains("/target/"))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String packageOf(Path file) {
        Matcher m = PACKAGE.matcher(read(file));
        return m.find() ? m.group(1) : "(default)";
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
