package dev.sluice.app.cli;

import dev.sluice.app.console.TerminalLines;
import dev.sluice.batch.backfill.PartitionOutcome;
import dev.sluice.control.backfill.PartitionStatus;
import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.control.run.RunStatus;
import dev.sluice.batch.job.RunSummary;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.BadInputException;
import dev.sluice.core.Partition;
import dev.sluice.core.PartitionKind;
import dev.sluice.core.SluiceException;
import dev.sluice.warehouse.Warehouse;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code sluice run <pipeline> --partition D [--rerun]} or {@code --from D --to D}: runs one
 * partition with a summary, or an inclusive range with a progress bar and a final table.
 */
@Command(name = "run", mixinStandardHelpOptions = true, description = "Run a pipeline for one partition or an inclusive range of partitions.")
final class RunCommand implements Callable<Integer> {

    private final SluiceContext ctx;

    @Parameters(index = "0", paramLabel = "PIPELINE", description = "pipeline name (pipelines/<name>.yaml) or spec file")
    String pipeline;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Which which;

    static final class Which {
        @Option(names = "--partition", paramLabel = "KEY", description = "the partition: YYYY-MM-DD (daily), YYYY-MM-DDTHH (hourly,"
                + " UTC), YYYY-MM (monthly) or YYYY-MM-DDTHH:MM:SSZ (per fire), as the pipeline's partitioning kind says")
        String partition;

        @ArgGroup(exclusive = false)
        Range range;
    }

    static final class Range {
        @Option(names = "--from", required = true, paramLabel = "YYYY-MM-DD", description = "first partition")
        LocalDate from;

        @Option(names = "--to", required = true, paramLabel = "YYYY-MM-DD", description = "last partition (inclusive)")
        LocalDate to;
    }

    @Option(names = "--strict", description = "design-rule warnings refuse it too (also SLUICE_STRICT=true)")
    boolean strict;

    @Option(names = "--rerun", description = "open the next attempt of COMPLETED partitions")
    boolean rerun;

    @Option(names = "--trace-id", description = "a correlation id to record with the run (not identifying)")
    String traceId;

    @Option(names = "--recover-stale", description = "restart an attempt marked running whose process is known to be"
            + " gone although Sluice cannot tell (it ran on another host or container)")
    boolean recoverStale;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec command;

    RunCommand(SluiceContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        PipelineSpec spec = ctx.loadToRun(pipeline, strict, command.commandLine().getErr());
        GracefulStop.install(() -> { });
        RunOptions options = new RunOptions(rerun, System.getProperty("user.name"), traceId, recoverStale);
        PrintWriter out = command.commandLine().getOut();
        try (Warehouse warehouse = Warehouse.open(spec.warehouse())) {
            PipelineRunner runner = new PipelineRunner(warehouse, ctx.home());
            if (which.partition != null) {
                Partition p;
                try {
                    p = spec.partitionKind().parse(which.partition);
                } catch (SluiceException e) {
                    // a partition of a rollup (a month of a daily pipeline) runs that rollup's tables
                    var rollup = PartitionKind.ofKey(which.partition)
                            .filter(k -> spec.tables().stream().anyMatch(t -> t.rollup() == k));
                    if (rollup.isEmpty()) {
                        throw new BadInputException("--partition", -1, null, e.getMessage());
                    }
                    p = rollup.get().parse(which.partition);
                }
                RunSummary s = runner.run(spec, p, options);
                RunReport.printOne(out, s);
                return s.completed() ? ExitCodes.OK : s.status() == RunStatus.STOPPED ? ExitCodes.STOPPED : ExitCodes.RUN_FAILED;
            }
            if (spec.partitionKind() != PartitionKind.DAILY) {
                throw new BadInputException("--from/--to", -1, null, "ranges are of daily partitions; pipeline "
                        + spec.name() + " is partitioned " + spec.partitionKind().id() + ": run its partitions one by one with --partition");
            }
            return runRange(runner, spec, which.range.from, which.range.to, options, out, TerminalLines.stderr(), ctx.home());
        }
    }

    /**
     * Runs an inclusive range with a progress bar on {@code terminal}, then prints the table, the wall
     * time and how many warnings were printed above the bar and where they are in full
     * ({@code home}/logs).
     */
    static int runRange(PipelineRunner runner, PipelineSpec spec, LocalDate from, LocalDate to, RunOptions options,
            PrintWriter out, TerminalLines terminal, Path home) {
        if (to.isBefore(from)) {
            throw new BadInputException("--to", -1, null, to + " is before --from " + from);
        }
        long started = System.nanoTime();
        RangeRun.Result result = RangeRun.run(runner, spec, from, to, options, terminal);
        List<PartitionOutcome> outcomes = result.outcomes();
        long wallMs = (System.nanoTime() - started) / 1_000_000;
        RunReport.printTable(out, outcomes, wallMs);
        out.printf(Locale.ROOT, "%d partitions in %s wall time%n", outcomes.size(), RunReport.seconds(wallMs));
        RunReport.printWarnings(out, result.warnings(), result.repeated(), home);
        boolean failed = outcomes.stream().anyMatch(o -> o.status() == PartitionStatus.FAILED);
        // exit 3 as for one partition: one is running elsewhere, or every one was COMPLETED already and nothing ran
        boolean refused = outcomes.stream().anyMatch(o -> o.status() == PartitionStatus.REFUSED)
                || outcomes.stream().allMatch(o -> o.status() == PartitionStatus.SKIPPED);
        boolean missing = outcomes.stream().anyMatch(o -> o.status() == PartitionStatus.MISSING || o.status() == PartitionStatus.INVALID);
        boolean stopped = outcomes.stream().anyMatch(o -> o.status() == PartitionStatus.STOPPED);
        return failed && !stopped ? ExitCodes.RUN_FAILED : stopped ? ExitCodes.STOPPED : missing ? ExitCodes.INVALID : refused ? ExitCodes.REFUSED : ExitCodes.OK;
    }
}
