package dev.sluice.app.cli;

import dev.sluice.app.console.TerminalLines;
import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.SluiceException;
import dev.sluice.sampledata.SampleDataInstaller;
import dev.sluice.warehouse.Warehouse;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code sluice quickstart}: sample-data, then the flights pipeline over every flight date the
 * sample laid out (first to last, inclusive), then what to look at next.
 */
@Command(name = "quickstart", mixinStandardHelpOptions = true, description = "sample-data + run the flights pipeline over every landed flight date.")
final class QuickstartCommand implements Callable<Integer> {

    private final SluiceContext ctx;

    @Option(names = "--pipeline", defaultValue = "flights", description = "the pipeline to run (default: ${DEFAULT-VALUE})")
    String pipeline;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec command;

    QuickstartCommand(SluiceContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        PrintWriter out = command.commandLine().getOut();
        long started = System.nanoTime();
        SampleDataInstaller.Result sample = SampleDataCommand.install(ctx, out);
        List<LocalDate> dates = landedDates(sample.landing().resolve("flights"));
        PipelineSpec spec = ctx.load(pipeline);
        int code;
        try (Warehouse warehouse = Warehouse.open(spec.warehouse())) {
            PipelineRunner runner = new PipelineRunner(warehouse, ctx.home());
            out.println("quickstart: running " + spec.name() + " for " + dates.get(0) + " .. " + dates.get(dates.size() - 1));
            code = RunCommand.runRange(runner, spec, dates.get(0), dates.get(dates.size() - 1),
                    new RunOptions(false, System.getProperty("user.name"), "quickstart", false), out,
                    TerminalLines.stderr(), ctx.home());
        }
        out.printf(Locale.ROOT, "quickstart finished in %s%n%n", RunReport.seconds((System.nanoTime() - started) / 1_000_000));
        String lakeTwin = spec.engine().lakehouse() || !Files.isRegularFile(ctx.pipelinesDir().resolve(spec.name() + "_lake.yaml"))
                ? null : spec.name() + "_lake";
        out.print(QuickstartHints.render(spec, lakeTwin, dates.get(0).toString(), dates.get(dates.size() - 1).toString(),
                ctx.home().resolve("logs/sluice.log")));
        return code;
    }

    private static List<LocalDate> landedDates(Path flights) {
        try (Stream<Path> s = Files.list(flights)) {
            List<LocalDate> dates = s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("dt="))
                    .map(n -> LocalDate.parse(n.substring(3))).sorted().toList();
            if (dates.isEmpty()) {
                throw new SluiceException("no flight partitions under " + flights);
            }
            return dates;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
