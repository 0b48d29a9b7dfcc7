package dev.sluice.operations.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.testkit.TestHome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The project's own documentation holds together (issue 28): {@code README.md} stays the page a
 * newcomer reads (under 15 KB, with the requirements, the quickstart and the very test command CI
 * runs) and the reference lives in {@code docs/}; every relative link of {@code README.md} and of
 * every Markdown page under {@code docs/} names a file that exists and, when it points into a
 * Markdown page ({@code page.md#anchor}), a heading of that page (anchors as GitHub makes them);
 * every file under {@code docs/} is reachable from {@code README.md} by following links.
 */
class ReadmeAndDocsTest {

    /** The README's ceiling, 15 KB: what a newcomer reads; the reference belongs in docs/. */
    static final int README_MAX_BYTES = 15 * 1024;

    /** An inline link or image, {@code [text](target)} or {@code [text](target "title")}. */
    private static final Pattern INLINE_LINK = Pattern.compile("!?\\[[^\\]\\n]*\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    /** A reference definition, {@code [label]: target}. */
    private static final Pattern REFERENCE_LINK = Pattern.compile("(?m)^ {0,3}\\[[^\\]]+\\]:\\s*<?([^\\s>]+)>?");
    private static final Pattern FENCED_BLOCK = Pattern.compile("(?ms)^ {0,3}(```|~~~).*?^ {0,3}\\1[^\\n]*$");
    private static final Pattern CODE_SPAN = Pattern.compile("`[^`\\n]*`");
    private static final Pattern HEADING = Pattern.compile("(?m)^ {0,3}#{1,6}\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");

    private static final Path ROOT = TestHome.projectRoot();

    @Test
    void theReadmeIsANewcomersPage() throws IOException {
        Path readme = ROOT.resolve("README.md");
        assertThat(Files.size(readme)).as("README.md is what a newcomer reads: move reference to a docs/<topic>.md page linked from it")
                .isLessThan(README_MAX_BYTES);
        String text = Files.readString(readme);
        assertThat(text).contains("## Requirements", "## The two commands", "## A five-minute tour", "## Where to read more")
                .contains("`sudo apt-get install openjdk-17-jdk-headless maven npm chromium chromium-driver`")
                .contains("```bash\nmvn -q -DskipTests package && ./sluice quickstart\n```\n")
                .contains("```bash\nmvn -B -ntp verify\n```\n")
                .contains("./sluice serve", "http://127.0.0.1:5000/");
        List<String> ciCommands = Files.readAllLines(ROOT.resolve(".ci/run")).stream().map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        assertThat(ciCommands.get(ciCommands.size() - 1)).as("CI's last command is the README's test command").isEqualTo("mvn -B -ntp verify");
    }

    @Test
    void everyRelativeLinkResolvesToAFileAndAnAnchor() {
        List<String> broken = new ArrayList<>();
        Map<Path, Set<String>> anchors = new HashMap<>();
        for (Path page : pages()) {
            for (String target : links(page)) {
                String file = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
                String anchor = target.contains("#") ? target.substring(target.indexOf('#') + 1) : "";
                Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                if (!resolved.startsWith(ROOT) || !Files.exists(resolved)) {
                    broken.add(ROOT.relativize(page) + ": (" + target + ") names no file of the project");
                } else if (!anchor.isEmpty() && resolved.toString().endsWith(".md")
                        && !anchors.computeIfAbsent(resolved, ReadmeAndDocsTest::anchors).contains(anchor)) {
                    broken.add(ROOT.relativize(page) + ": (" + target + ") names no heading of " + ROOT.relativize(resolved)
                            + "; its anchors: " + anchors.get(resolved));
                }
            }
        }
        assertThat(broken).as("relative links in README.md and docs/").isEmpty();
    }

    @Test
    void everyFileUnderDocsIsReachableFromTheReadme() throws IOException {
        Set<Path> reached = new LinkedHashSet<>();
        Deque<Path> todo = new ArrayDeque<>(List.of(ROOT.resolve("README.md")));
        while (!todo.isEmpty()) {
            Path page = todo.pop();
            if (!reached.add(page) || !page.toString().endsWith(".md")) {
                continue;
            }
            for (String target : links(page)) {
                String file = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
                Path resolved = page.getParent().resolve(file).normalize();
                if (!file.isEmpty() && Files.isRegularFile(resolved)) {
                    todo.push(resolved);
                }
            }
        }
        Set<String> unreached = new TreeSet<>();
        try (Stream<Path> files = Files.walk(ROOT.resolve("docs"))) {
            files.filter(Files::isRegularFile).filter(f -> !reached.contains(f)).forEach(f -> unreached.add(ROOT.relativize(f).toString()));
        }
        assertThat(unreached).as("files under docs/ that no chain of links from README.md reaches: link each from the README's"
                + " \"Where to read more\" or from a page it links").isEmpty();
    }

    /** README.md and every Markdown page under docs/. */
    private static List<Path> pages() {
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> files = Files.walk(ROOT.resolve("docs"))) {
            files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(pages::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return pages;
    }

    /** The relative link targets of a Markdown page (outside code), without a URL scheme. */
    static List<String> links(Path page) {
        String text = prose(read(page));
        List<String> targets = new ArrayList<>();
        for (Pattern p : List.of(INLINE_LINK, REFERENCE_LINK)) {
            Matcher m = p.matcher(text);
            while (m.find()) {
                String target = m.group(1);
                if (!SCHEME.matcher(target).find()) {
                    targets.add(target);
                }
            }
        }
        return targets;
    }

    /**
     * The anchors of a page's headings as GitHub makes them: the heading's text in lower case,
     * without characters other than letters, digits, spaces, hyphens and underscores, spaces made
     * hyphens; a repeated anchor gets {@code -1}, {@code -2}, … appended.
     */
    static Set<String> anchors(Path page) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        Matcher m = HEADING.matcher(FENCED_BLOCK.matcher(read(page)).replaceAll(""));
        while (m.find()) {
            String text = m.group(1).replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1");
            String slug = text.strip().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}\\p{M} _-]", "").replace(' ', '-');
            int n = seen.merge(slug, 1, Integer::sum) - 1;
            anchors.add(n == 0 ? slug : slug + "-" + n);
        }
        return anchors;
    }

    /** The text outside fenced code blocks and code spans, where a link is a link. */
    private static String prose(String markdown) {
        return CODE_SPAN.matcher(FENCED_BLOCK.matcher(markdown).replaceAll("")).replaceAll("");
    }

    private static String read(Path page) {
        try {
            return Files.readString(page);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
