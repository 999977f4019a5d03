package io.kcscale.tests.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kcscale.tests.fixtures.RepositoryFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * README.md and docs/*.md: every relative link reaches a file of the repository and every {@code #anchor} a
 * heading of its page (GitHub's slugs); the docs describe the product, not its development history.
 */
class DocsLinksTest {

    /** Work items and the development diary: "stop 25", "issue 20", "this stop", a commit hash. */
    static final List<Pattern> HISTORY = List.of(
            Pattern.compile("(?i)\\bstop #?\\d+\\b"),
            Pattern.compile("(?i)\\bissues? #?\\d+\\b"),
            Pattern.compile("(?i)\\bthis (stop|branch|session)\\b"),
            Pattern.compile("(?i)\\bwt-[a-z]+\\b"),
            Pattern.compile("\\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\\b"));

    @Test
    void everyRelativeLinkAndAnchorResolves() {
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path page : DocsPages.pages()) {
            for (DocsPages.Link link : DocsPages.links(page)) {
                String problem = problem(page, link.target());
                if (problem != null) {
                    broken.add(link.where() + ": " + link.target() + ": " + problem);
                }
                checked++;
            }
        }
        assertTrue(checked > 100, "the pages hold " + checked + " links: the link reader lost them");
        assertEquals(List.of(), broken, "broken links in the docs");
    }

    @Test
    void theGuideHasAnIndexLinkingEveryPage() {
        Path docs = RepositoryFiles.home().resolve("docs");
        Set<String> linked = new java.util.HashSet<>();
        for (DocsPages.Link link : DocsPages.links(docs.resolve("README.md"))) {
            linked.add(link.target().split("#", 2)[0]);
        }
        List<String> missing = DocsPages.pages().stream()
                .filter(p -> p.getParent().equals(docs)
                        && !p.getFileName().toString().equals("README.md"))
                .map(p -> p.getFileName().toString())
                .filter(name -> !linked.contains(name))
                .toList();
        assertEquals(List.of(), missing, "pages docs/README.md does not link");
    }

    @Test
    void theDocsHoldNoDevelopmentHistory() {
        List<String> found = new ArrayList<>();
        for (Path page : DocsPages.pages()) {
            List<String> lines = DocsPages.lines(page);
            for (int i = 0; i < lines.size(); i++) {
                for (Pattern p : HISTORY) {
                    Matcher m = p.matcher(lines.get(i));
                    while (m.find()) {
                        found.add(RepositoryFiles.home().relativize(page) + ":" + (i + 1) + ": \"" + m.group() + "\"");
                    }
                }
            }
        }
        assertEquals(List.of(), found, "development history in the docs: describe the product as it is");
    }

    /** The checks themselves: slugs as GitHub makes them, and history the patterns catch. */
    @Test
    void theRulesMatchGitHubAndCatchHistory() {
        assertEquals("faults-bench-chaos", DocsPages.slug("Faults: `bench chaos`"));
        assertEquals("elasticsearch-717-8-and-9", DocsPages.slug("Elasticsearch 7.17, 8 and 9"));
        assertEquals("the-scalers-own-metrics", DocsPages.slug("The scaler's own metrics"));
        assertEquals("post-apiv1connectorsnamescale", DocsPages.slug("`POST /api/v1/connectors/{name}/scale`"));
        for (String history : List.of("measured in stop 25", "as issue 20 asked", "since 2eaff49", "until this stop")) {
            assertTrue(HISTORY.stream().anyMatch(p -> p.matcher(history).find()), history);
        }
        for (String prose : List.of(
                "the sink stops 3 tasks", "strimzi/strimzi-kafka-operator#10450", "a deadline of 1000 ms", "facade")) {
            assertTrue(HISTORY.stream().noneMatch(p -> p.matcher(prose).find()), prose);
        }
    }

    private static String problem(Path page, String target) {
        if (target.matches("(?i)^[a-z][a-z0-9+.-]*:.*")) {
            return null; // https:, mailto:: not checked offline
        }
        String[] parts = target.split("#", 2);
        Path file =
                parts[0].isEmpty() ? page : page.getParent().resolve(parts[0]).normalize();
        if (!file.startsWith(RepositoryFiles.home())) {
            return "outside the repository";
        }
        if (!Files.exists(file)) {
            return "no such file";
        }
        if (parts.length == 2) {
            if (!file.getFileName().toString().endsWith(".md")) {
                return "an anchor into a file that is not a page";
            }
            if (!DocsPages.anchors(file).contains(parts[1])) {
                return "no heading of " + RepositoryFiles.home().relativize(file) + " has the anchor #" + parts[1];
            }
        }
        return null;
    }
}
