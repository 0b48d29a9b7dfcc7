package dev.sluice.app.cli;

import dev.sluice.engine.EngineDescription;
import dev.sluice.engine.LayerEngines;
import dev.sluice.batch.backfill.Backfill;
import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.SluiceException;
import dev.sluice.sampledata.SampleDataInstaller;
import dev.sluice.warehouse.Warehouse;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code sluice quickstart}: sample-data, then a backfill of the flights pipeline over every flight
 * date the sample laid out (first to last, inclusive; waves of partitions judged and, on the
 * lakehouse, written together, two at a time by default: what {@code sluice backfill} does), then
 * what to look at next. Invoked again, it continues an unfinished load and skips the completed days.
 */
@Command(name = "quickstart", mixinStandardHelpOptions = true, description = "sample-data + run the flights pipeline over every landed flight date.")
final class QuickstartCommand implements Callable<Integer> {

    private final SluiceContext ctx;

    @Option(names = "--pipeline", defaultValue = "flights", description = "the pipeline to run (default: ${DEFAULT-VALUE})")
    String pipeline;

    @CommandLine.Mixin
    WaveOptions waves;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec command;

    QuickstartCommand(SluiceContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        Backfill.Options options = waves.options(System.getProperty("user.name"));
        PrintWriter out = command.commandLine().getOut();
        long started = System.nanoTime();
        SampleDataInstaller.Result sample = SampleDataCommand.install(ctx, out);
        List<LocalDate> dates = landedDates(sample.landing().resolve("flights"));
        PipelineSpec spec = ctx.load(pipeline);
        int code;
        try (Warehouse warehouse = Warehouse.open(spec.warehouse(), waves.poolSize(Warehouse.DEFAULT_POOL_SIZE))) {
            Backfill backfill = new Backfill(new PipelineRunner(warehouse, ctx.home()), Clock.systemUTC());
            LocalDate first = dates.get(0);
            LocalDate last = dates.get(dates.size() - 1);
            out.println("quickstart: running " + spec.name() + " for " + first + " .. " + last + " as a backfill (parallelism "
                    + options.parallelism() + ", waves of " + options.gateBatch() + " partitions)");
            GracefulStop.install(() -> { });
            code = BackfillCommand.runPlanned(backfill, spec, backfill.plan(spec, first, last, false),
                    options, out, ctx.home());
        }
        out.printf(Locale.ROOT, "quickstart finished in %s%n%n", RunReport.seconds((System.nanoTime() - started) / 1_000_000));
        EngineDescription engine = LayerEngines.provider(spec).describe(spec);
        String twin = engine.quickstartTwin() == null ? null : spec.name() + engine.quickstartTwin();
        String lakeTwin = twin != null && Files.isRegularFile(ctx.pipelinesDir().resolve(twin + ".yaml")) ? twin : null;
        out.print(QuickstartHints.render(spec, engine, lakeTwin, dates.get(0).toString(), dates.get(dates.size() - 1).toString(),
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
