package dev.sluice.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.SluiceEnvironment;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code docs/commands.md} documents every command of {@code sluice --help} (issue 28): the page's
 * table has a row per command line, its first cell the line as typed ({@code `sluice quality show
 * <pipeline> --partition D …`}). Every command and subcommand has at least one row (a command with
 * subcommands through its subcommands' rows), the rows of a command together name each of its
 * options, a row names only commands and options that exist, and the page's "Exit codes" lists
 * every exit code of the top help.
 */
class CommandDocumentationTest {

    private static final Path PAGE = TestHome.projectRoot().resolve("docs/commands.md");
    /** A table row whose first cell is a command line: its code span. */
    private static final Pattern ROW = Pattern.compile("(?m)^\\|\\s*`(sluice\\b[^`]*)`\\s*\\|");
    private static final Pattern OPTION = Pattern.compile("(?<![\\w-])--[a-z][a-z0-9-]*");

    private static String page;
    private static CommandLine root;
    /** Per documented command (qualified name), the options its rows name. */
    private static final Map<String, Set<String>> documented = new TreeMap<>();
    private static final List<String> wrongRows = new ArrayList<>();

    @BeforeAll
    static void readThePage() throws IOException {
        page = Files.readString(PAGE);
        root = SluiceCommand.commandLine(new SluiceEnvironment(Map.of()), new PrintWriter(new StringWriter()),
                new PrintWriter(new StringWriter()));
        Matcher row = ROW.matcher(page);
        while (row.find()) {
            String line = row.group(1).replace("\\|", "|");
            List<String> words = Arrays.asList(line.split("\\s+"));
            CommandLine command = root;
            for (String word : words.subList(1, words.size())) {
                CommandLine sub = command.getSubcommands().get(word);
                if (sub == null) {
                    break;
                }
                command = sub;
            }
            if (command == root) {
                wrongRows.add("`" + line + "` names no command of sluice --help");
                continue;
            }
            Set<String> options = documented.computeIfAbsent(command.getCommandSpec().qualifiedName(), k -> new TreeSet<>());
            Matcher option = OPTION.matcher(line);
            while (option.find()) {
                if (command.getCommandSpec().optionsMap().containsKey(option.group())) {
                    options.add(option.group());
                } else {
                    wrongRows.add("`" + line + "` names " + option.group() + ", which " + command.getCommandSpec().qualifiedName()
                            + " does not have");
                }
            }
        }
    }

    @Test
    void theTableHasRows() {
        assertThat(documented).as("rows of docs/commands.md whose first cell is `sluice …`").hasSizeGreaterThan(20);
    }

    @Test
    void everyCommandOfTheHelpHasARow() {
        List<String> missing = new ArrayList<>();
        for (CommandLine c : everyCommand(root)) {
            String name = c.getCommandSpec().qualifiedName();
            if (c == root) {
                continue;
            }
            boolean hasRow = c.getSubcommands().isEmpty()
                    ? documented.containsKey(name)
                    : documented.keySet().stream().anyMatch(d -> d.startsWith(name + " "));
            if (!hasRow) {
                missing.add(name + ": " + c.getCommandSpec().usageMessage().description()[0]);
            }
        }
        assertThat(missing).as("commands of sluice --help without a row in docs/commands.md").isEmpty();
    }

    @Test
    void everyOptionOfACommandIsNamedInItsRows() {
        List<String> missing = new ArrayList<>();
        for (CommandLine c : everyCommand(root)) {
            Set<String> named = documented.get(c.getCommandSpec().qualifiedName());
            if (named == null) {
                continue; // everyCommandOfTheHelpHasARow says so
            }
            for (CommandLine.Model.OptionSpec o : c.getCommandSpec().options()) {
                if (!o.usageHelp() && !o.versionHelp() && Arrays.stream(o.names()).noneMatch(named::contains)) {
                    missing.add(c.getCommandSpec().qualifiedName() + " " + o.longestName() + ": " + String.join(" ", o.description()));
                }
            }
        }
        assertThat(missing).as("options of sluice --help that no row of docs/commands.md names").isEmpty();
    }

    @Test
    void everyRowNamesACommandAndOptionsThatExist() {
        assertThat(wrongRows).as("rows of docs/commands.md").isEmpty();
    }

    @Test
    void everyExitCodeOfTheHelpIsExplained() {
        int start = page.indexOf("\n## Exit codes\n");
        assertThat(start).as("docs/commands.md has a section \"## Exit codes\"").isPositive();
        int end = page.indexOf("\n## ", start + 1);
        String section = page.substring(start, end < 0 ? page.length() : end);
        Set<String> codes = root.getCommandSpec().usageMessage().exitCodeList().keySet();
        assertThat(codes).isNotEmpty();
        for (String code : codes) {
            assertThat(section).as("exit code %s in docs/commands.md, \"Exit codes\"", code.strip()).contains("`" + code.strip() + "`");
        }
    }

    private static List<CommandLine> everyCommand(CommandLine c) {
        List<CommandLine> all = new ArrayList<>(List.of(c));
        c.getSubcommands().values().forEach(sub -> all.addAll(everyCommand(sub)));
        return all;
    }
}
