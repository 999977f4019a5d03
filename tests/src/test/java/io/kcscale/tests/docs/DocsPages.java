package io.kcscale.tests.docs;

import io.kcscale.tests.fixtures.RepositoryFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * README.md and the guide's pages (docs/*.md) as the docs tests read them: headings and their GitHub
 * anchors, links, and fenced code blocks with their language and line.
 */
public final class DocsPages {

    /** A fenced code block: the page, the line of its opening fence (1-based), its language tag, its text. */
    public record Block(Path page, int line, String language, String text) {
        public String where() {
            return RepositoryFiles.home().relativize(page) + ":" + line;
        }
    }

    /** A link in a page's prose: the page, its line and its target as written. */
    record Link(Path page, int line, String target) {
        String where() {
            return RepositoryFiles.home().relativize(page) + ":" + line;
        }
    }

    private static final Pattern FENCE = Pattern.compile("^(\\s*)(```+|~~~+)\\s*([^\\s`]*).*$");
    private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern INLINE_CODE = Pattern.compile("`+[^`]*`+");
    private static final Pattern LINK =
            Pattern.compile("!?\\[[^\\]]*\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");

    private DocsPages() {}

    /** README.md and every docs/*.md, README first. */
    public static List<Path> pages() {
        Path home = RepositoryFiles.home();
        List<Path> pages = new ArrayList<>();
        pages.add(home.resolve("README.md"));
        try (Stream<Path> s = Files.list(home.resolve("docs"))) {
            s.filter(p -> p.getFileName().toString().endsWith(".md")).sorted().forEach(pages::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return pages;
    }

    static List<String> lines(Path page) {
        try {
            return Files.readAllLines(page);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + page, e);
        }
    }

    /** Every fenced block of the page. */
    public static List<Block> blocks(Path page) {
        List<Block> blocks = new ArrayList<>();
        List<String> lines = lines(page);
        String fence = null;
        String language = null;
        int start = 0;
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            Matcher m = FENCE.matcher(line);
            if (fence == null) {
                if (m.matches()) {
                    fence = m.group(2);
                    language = m.group(3).toLowerCase(Locale.ROOT);
                    start = i + 1;
                    text.setLength(0);
                }
            } else if (m.matches() && m.group(2).startsWith(fence) && m.group(3).isEmpty()) {
                blocks.add(new Block(page, start, language, text.toString()));
                fence = null;
            } else {
                text.append(line).append('\n');
            }
        }
        if (fence != null) {
            throw new AssertionError(
                    RepositoryFiles.home().relativize(page) + ":" + start + ": a code fence is never closed");
        }
        return blocks;
    }

    /** The page's lines outside fenced blocks, with the lines in them blanked (numbers kept). */
    static List<String> prose(Path page) {
        List<String> lines = lines(page);
        List<String> out = new ArrayList<>(lines.size());
        String fence = null;
        for (String line : lines) {
            Matcher m = FENCE.matcher(line);
            if (fence == null && m.matches()) {
                fence = m.group(2);
                out.add("");
            } else if (fence != null) {
                if (m.matches() && m.group(2).startsWith(fence) && m.group(3).isEmpty()) {
                    fence = null;
                }
                out.add("");
            } else {
                out.add(line);
            }
        }
        return out;
    }

    /** The anchors GitHub gives the page's headings, in order, duplicates numbered as GitHub numbers them. */
    static Set<String> anchors(Path page) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        for (String line : prose(page)) {
            Matcher m = HEADING.matcher(line);
            if (m.matches()) {
                String slug = slug(m.group(2));
                int n = seen.merge(slug, 1, Integer::sum) - 1;
                anchors.add(n == 0 ? slug : slug + "-" + n);
            }
        }
        return anchors;
    }

    /**
     * GitHub's heading anchor: the heading's text (markup stripped) in lower case, every character that is
     * not a letter, a digit, a space, a hyphen or an underscore dropped, each space a hyphen.
     */
    static String slug(String heading) {
        String text = heading.replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1")
                .replace("`", "")
                .replace("*", "");
        StringBuilder slug = new StringBuilder();
        text.toLowerCase(Locale.ROOT).codePoints().forEach(c -> {
            if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                slug.appendCodePoint(c);
            } else if (c == ' ') {
                slug.append('-');
            }
        });
        return slug.toString();
    }

    /** Every link and image of the page's prose (inline code and fenced blocks excluded; a link text may span lines). */
    static List<Link> links(Path page) {
        List<Link> links = new ArrayList<>();
        List<String> prose = prose(page);
        StringBuilder text = new StringBuilder();
        for (String line : prose) {
            text.append(INLINE_CODE.matcher(line).replaceAll("``")).append('\n');
        }
        Matcher m = LINK.matcher(text);
        while (m.find()) {
            int line = 1
                    + (int) text.substring(0, m.start(1))
                            .chars()
                            .filter(c -> c == '\n')
                            .count();
            links.add(new Link(page, line, m.group(1)));
        }
        return links;
    }
}
