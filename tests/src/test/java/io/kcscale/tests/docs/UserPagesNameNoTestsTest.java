package io.kcscale.tests.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.tests.fixtures.RepositoryFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The user pages (README.md and docs/*.md but the contributors' pages and the generated API reference) name no
 * test class of this repository: they say what the test suite runs and shows. A test class is a
 * {@code *Test.java} under a {@code src/test/java} folder, so a prose word ending in "Test" is not caught.
 *
 * <p>Not counted: HTML comments, which a reader of the rendered page does not see (a generated table's marker
 * names its generator), and the value of {@code -Dtest=} in a command that reproduces a figure.
 */
class UserPagesNameNoTestsTest {

    /** Pages for contributors, and the API reference, whose header names the test that generates it. */
    static final Set<String> NOT_USER_PAGES = Set.of("docs/contributing.md", "docs/architecture.md", "docs/api.md");

    private static final Pattern WORD_ENDING_IN_TEST = Pattern.compile("\\b[A-Za-z][A-Za-z0-9_]*Test\\b");
    private static final Pattern MAVEN_TEST_FLAG = Pattern.compile("-Dtest=[^\\s`]*");
    private static final Set<String> NOT_SOURCES = Set.of(".git", "target", "node_modules");

    @Test
    void userPagesNameNoTestClass() {
        Set<String> testClasses = testClasses();
        List<String> found = new ArrayList<>();
        int pages = 0;
        for (Path page : DocsPages.pages()) {
            String name = RepositoryFiles.home().relativize(page).toString();
            if (NOT_USER_PAGES.contains(name)) {
                continue;
            }
            pages++;
            List<String> lines = visibleText(DocsPages.lines(page));
            for (int i = 0; i < lines.size(); i++) {
                for (String test : testClassesIn(lines.get(i), testClasses)) {
                    found.add(name + ":" + (i + 1) + ": " + test);
                }
            }
        }
        assertTrue(pages >= 15, pages + " user pages: the page list lost them");
        for (String excluded : NOT_USER_PAGES) {
            assertTrue(Files.exists(RepositoryFiles.home().resolve(excluded)), excluded + " is gone: update the list");
        }
        assertEquals(
                List.of(),
                found,
                "user pages naming a test class: say what the test suite runs and shows instead"
                        + " (test classes belong in docs/contributing.md or docs/architecture.md)");
    }

    /** The checks themselves: what counts as naming a test, and what does not. */
    @Test
    void theRuleCatchesTestClassesAndNothingElse() {
        Set<String> testClasses = testClasses();
        assertTrue(testClasses.size() > 100, testClasses.size() + " test classes found: the walk lost them");
        assertTrue(testClasses.contains(getClass().getSimpleName()), "this class is not among " + testClasses);
        String self = getClass().getSimpleName();

        assertEquals(List.of(self), testClassesIn("`" + self + "` runs it.", testClasses));
        assertEquals(List.of(self), testClassesIn("(" + self + ".userPagesNameNoTestClass, 2026-11-29)", testClasses));
        assertEquals(List.of(), testClassesIn("a LoadTest or a smoke Test of the stack", testClasses));
        assertEquals(List.of(), testClassesIn("`mvn -B -o verify -Dtest=" + self + " -Dx=1`", testClasses));

        List<String> page = List.of("before <!-- by " + self + " --> after", "<!-- a comment", self, "-->", self);
        List<String> visible = visibleText(page);
        assertEquals(List.of("before  after", "", "", "", self), visible);
    }

    /** The simple names of every {@code src/test/java/**}{@code /*Test.java} of the repository. */
    static Set<String> testClasses() {
        Set<String> names = new TreeSet<>();
        try {
            Files.walkFileTree(RepositoryFiles.home(), new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                    return NOT_SOURCES.contains(String.valueOf(dir.getFileName()))
                            ? FileVisitResult.SKIP_SUBTREE
                            : FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    String name = file.getFileName().toString();
                    if (name.endsWith("Test.java") && file.toString().contains("/src/test/java/")) {
                        names.add(name.substring(0, name.length() - ".java".length()));
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return names;
    }

    /** The page's lines with HTML comments blanked (a comment may span lines; line numbers kept). */
    static List<String> visibleText(List<String> lines) {
        List<String> out = new ArrayList<>(lines.size());
        boolean inComment = false;
        for (String line : lines) {
            StringBuilder visible = new StringBuilder();
            int at = 0;
            while (at < line.length()) {
                if (inComment) {
                    int end = line.indexOf("-->", at);
                    if (end < 0) {
                        at = line.length();
                    } else {
                        inComment = false;
                        at = end + 3;
                    }
                } else {
                    int start = line.indexOf("<!--", at);
                    if (start < 0) {
                        visible.append(line, at, line.length());
                        at = line.length();
                    } else {
                        visible.append(line, at, start);
                        inComment = true;
                        at = start + 4;
                    }
                }
            }
            out.add(visible.toString());
        }
        return out;
    }

    static List<String> testClassesIn(String line, Set<String> testClasses) {
        List<String> named = new ArrayList<>();
        Matcher m = WORD_ENDING_IN_TEST.matcher(MAVEN_TEST_FLAG.matcher(line).replaceAll(""));
        while (m.find()) {
            if (testClasses.contains(m.group())) {
                named.add(m.group());
            }
        }
        return named;
    }
}
