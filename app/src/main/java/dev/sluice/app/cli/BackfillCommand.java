package dev.sluice.app.cli;

import dev.sluice.batch.backfill.Action;
import dev.sluice.batch.backfill.Backfill;
import dev.sluice.batch.backfill.BackfillPlan;
import dev.sluice.batch.backfill.BackfillReport;
import dev.sluice.batch.backfill.PartitionOutcome;
import dev.sluice.batch.backfill.PlannedPartition;
import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.warehouse.Warehouse;
import dev.sluice.config.PipelineSpec;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.LocalDate;
import java.util.Locale;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sluice backfill <pipeline> --from D --to D [--parallelism N] [--gate-batch W] [--rerun]
 * [--dry-run]} or {@code --stale}: prints the plan (partitions × steps, in order), runs it with a progress bar and
 * ETA, and ends with a table; exit 1 when a partition failed. Invoking it again continues an
 * unfinished backfill of the same range.
 */
@Command(name = "backfill", mixinStandardHelpOptions = true,
        description = {"Re-run a range of partitions as one backfill run: planned, parallel, resumable.",
                "Invoking it again continues an unfinished backfill of the same range (completed partitions are skipped)."})
final class BackfillCommand implements Callable<Integer> {

    private final SluiceContext ctx;

    @Parameters(index = "0", paramLabel = "PIPELINE", description = "pipeline name (pipelines/<name>.yaml) or spec file")
    String pipeline;

    @Option(names = "--from", paramLabel = "YYYY-MM-DD", description = "first partition (required unless --stale)")
    LocalDate from;

    @Option(names = "--to", paramLabel = "YYYY-MM-DD", description = "last partition, inclusive (required unless --stale)")
    LocalDate to;

    @Option(names = "--stale", description = "re-run only the partitions last built with another spec/contract/SQL hash than"
            + " today's (default range: every built partition)")
    boolean stale;

    @Option(names = "--parallelism", paramLabel = "N", defaultValue = "${env:SLUICE_BACKFILL_PARALLELISM:-2}",
            description = "partitions working at once (default ${DEFAULT-VALUE}; env SLUICE_BACKFILL_PARALLELISM)")
    int parallelism;

    @Option(names = "--gate-batch", paramLabel = "W", defaultValue = "${env:SLUICE_BACKFILL_GATE_BATCH:-64}",
            description = "partitions per wave whose quality gates are judged in one Spark pass (default ${DEFAULT-VALUE};"
                    + " 1 judges each alone; env SLUICE_BACKFILL_GATE_BATCH)")
    int gateBatch;

    @Option(names = "--rerun", description = "run COMPLETED partitions again (next attempt)")
    boolean rerun;

    @Option(names = "--dry-run", description = "print the plan and stop")
    boolean dryRun;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec command;

    BackfillCommand(SluiceContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        if (parallelism < 1 || gateBatch < 1) {
            throw new dev.sluice.core.BadInputException(parallelism < 1 ? "--parallelism" : "--gate-batch", -1, null, "must be at least 1");
        }
        PipelineSpec spec = ctx.load(pipeline);
        PrintWriter out = command.commandLine().getOut();
        try (Warehouse warehouse = Warehouse.open(spec.warehouse(), Math.max(Warehouse.DEFAULT_POOL_SIZE, parallelism + 4))) {
            Backfill backfill = new Backfill(new PipelineRunner(warehouse, ctx.home()), Clock.systemUTC());
            if (from == null || to == null) {
                if (!stale) {
                    throw new dev.sluice.core.BadInputException(from == null ? "--from" : "--to", -1, null,
                            "a backfill needs --from and --to (only --stale may leave them out)");
                }
                var built = backfill.builtRange(spec);
                if (built.isEmpty()) {
                    out.println("nothing is built yet for " + spec.name() + ": nothing can be stale");
                    return ExitCodes.OK;
                }
                from = from == null ? built.get()[0] : from;
                to = to == null ? built.get()[1] : to;
            }
            if (spec.partitionKind() != dev.sluice.core.PartitionKind.DAILY) {
                throw new dev.sluice.core.BadInputException("--from/--to", -1, null, "backfills are of daily partitions; pipeline "
                        + spec.name() + " is partitioned " + spec.partitionKind().id());
            }
            BackfillPlan plan = backfill.plan(spec, from, to, rerun, stale);
            printPlan(out, plan);
            if (plan.count(Action.MISSING) == plan.partitions().size()) {
                throw new dev.sluice.batch.job.LandingMissingException("no partition of " + from + " … " + to + " has landed files for "
                        + spec.name() + " (the first: " + plan.partitions().get(0).reason() + "); nothing was run or recorded");
            }
            if (dryRun) {
                out.println("dry run: nothing was run");
                return ExitCodes.OK;
            }
            out.flush();
            BackfillReport report;
            try (ProgressBar bar = new ProgressBarBuilder().setTaskName(spec.name() + " backfill").setInitialMax(plan.partitions().size())
                    .setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis(500).showSpeed()
                    .setConsumer(new ConsoleProgressBarConsumer(System.err)).build()) {
                report = backfill.run(spec, plan, new Backfill.Options(parallelism, gateBatch, System.getProperty("user.name")),
                        outcome -> {
                            synchronized (bar) {
                                bar.setExtraMessage(" " + outcome.partition() + " " + outcome.status());
                                bar.step();
                            }
                        });
            }
            RunReport.printTable(out, report.outcomes());
            out.printf(Locale.ROOT, "backfill %s %s: %d partition(s) in %s wall time; quality gates %s in %d one-pass"
                            + " evaluation(s) (%.1f %% of the wall time)%n",
                    report.backfillId(), report.status(), report.outcomes().size(), RunReport.seconds(report.elapsedMs()),
                    RunReport.seconds(report.gateMs()), report.gateBatches(),
                    report.elapsedMs() == 0 ? 0.0 : 100.0 * report.gateMs() / report.elapsedMs());
            if (report.gateBatches() > 0) {
                out.println("gate time by step: " + report.gateMsByStep().entrySet().stream()
                        .map(e -> e.getKey() + " " + RunReport.seconds(e.getValue())).collect(java.util.stream.Collectors.joining(", ")));
            }
            if (!report.completed()) {
                out.println("Invoking the same command again continues this backfill: completed partitions are skipped,"
                        + " failed ones restart from their failed step.");
            }
            return report.completed() ? ExitCodes.OK : ExitCodes.RUN_FAILED;
        }
    }

    private void printPlan(PrintWriter out, BackfillPlan plan) {
        out.printf(Locale.ROOT, "backfill %s of %s, %s … %s%s: %d partition(s), %d to run (run %d, restart %d, rerun %d, resume %d),"
                        + " %d skipped, %d missing%n",
                plan.resumed() ? plan.backfillId() : dryRun ? "(new)" : plan.backfillId(), plan.pipeline(), plan.from(), plan.to(), plan.resumed() ? " (continued)" : "",
                plan.partitions().size(), plan.toRun().size(), plan.count(Action.RUN), plan.count(Action.RESTART),
                plan.count(Action.RERUN), plan.count(Action.RESUME), plan.count(Action.SKIP), plan.count(Action.MISSING));
        out.println("steps of each partition, in order: " + String.join(" → ", plan.steps()));
        out.printf(Locale.ROOT, "parallelism %d; quality gates judged in waves of %d partition(s)%n", parallelism, gateBatch);
        out.printf(Locale.ROOT, "%-12s %-8s %s%n", "partition", "action", "why");
        for (PlannedPartition p : plan.partitions()) {
            out.printf(Locale.ROOT, "%-12s %-8s %s%n", p.partition(), p.action().name().toLowerCase(Locale.ROOT), p.reason());
        }
    }
}
