package dev.sluice.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.SluiceEnvironment;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The help a new user reads: every command's summary in {@code sluice --help} is a whole sentence,
 * every argument and option says what it is, and every exit code is listed.
 */
class HelpTextTest {

    private static CommandLine cli() {
        return SluiceCommand.commandLine(new SluiceEnvironment(Map.of()), new PrintWriter(new StringWriter()),
                new PrintWriter(new StringWriter()));
    }

    private static List<CommandLine> everyCommand(CommandLine c) {
        List<CommandLine> all = new ArrayList<>(List.of(c));
        c.getSubcommands().values().forEach(sub -> all.addAll(everyCommand(sub)));
        return all;
    }

    @Test
    void everySummaryIsAWholeSentence() {
        List<String> cut = new ArrayList<>();
        for (CommandLine c : everyCommand(cli())) {
            String[] description = c.getCommandSpec().usageMessage().description();
            String first = description.length == 0 ? "" : description[0].strip();
            if (!first.endsWith(".")) {
                cut.add(c.getCommandSpec().qualifiedName() + ": '" + first + "'");
            }
        }
        assertThat(cut).as("the summary --help shows (a description's first line) ends its sentence").isEmpty();
    }

    @Test
    void everyArgumentAndOptionSaysWhatItIs() {
        List<String> bare = new ArrayList<>();
        for (CommandLine c : everyCommand(cli())) {
            for (CommandLine.Model.ArgSpec a : c.getCommandSpec().args()) {
                boolean standard = a instanceof CommandLine.Model.OptionSpec o && (o.usageHelp() || o.versionHelp());
                if (!standard && String.join("", a.description()).isBlank()) {
                    bare.add(c.getCommandSpec().qualifiedName() + " " + a.paramLabel()
                            + (a instanceof CommandLine.Model.OptionSpec o ? " (" + o.longestName() + ")" : ""));
                }
            }
        }
        assertThat(bare).as("arguments and options without a description").isEmpty();
    }

    @Test
    void theTopHelpListsEveryExitCodeAndWholeSummaries() {
        StringWriter out = new StringWriter();
        int code = SluiceCommand.execute(new SluiceEnvironment(Map.of()), new PrintWriter(out, true), new PrintWriter(new StringWriter()),
                "--help");
        assertThat(code).isZero();
        String help = out.toString().replaceAll("\\s+", " ");
        assertThat(help).contains("0 success").contains("1 a run failed").contains("2 invalid input").contains("3 refused")
                .contains("4 stopped on request (a step timeout, sluice cancel, SIGTERM/SIGINT): a plain run resumes it")
                .contains("70 internal error");
        assertThat(help).contains("advise Recommend a mode (hybrid, streaming, micro-batch, batch) from a pipeline's declared requirements,"
                        + " and say where its design (layers, hot path, partitioning) disagrees (exit 1 when it does).")
                .contains("docs Render a pipeline's design document in Markdown")
                .contains("with recent runs and quality history when the warehouse has them.")
                .contains("serve Serve the page").contains("the metrics (GET /actuator/prometheus).");
    }
}
