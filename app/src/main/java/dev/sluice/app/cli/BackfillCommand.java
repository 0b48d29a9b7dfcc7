package dev.sluice.app.cli;

import dev.sluice.app.console.ProgressDisplay;
import dev.sluice.app.console.TerminalLines;
import dev.sluice.control.backfill.Action;
import dev.sluice.batch.backfill.Backfill;
import dev.sluice.batch.backfill.BackfillPlan;
import dev.sluice.batch.backfill.BackfillReport;
import dev.sluice.batch.backfill.PartitionOutcome;
import dev.sluice.control.run.RunStatus;
import dev.sluice.batch.backfill.PlannedPartition;
import dev.sluice.batch.job.LandingMissingException;
import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.BadInputException;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.PartitionKind;
import dev.sluice.core.SluiceException;
import dev.sluice.warehouse.Warehouse;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code sluice backfill <pipeline> --from D --to D [--parallelism N] [--gate-batch W] [--rerun]
 * [--dry-run]}, {@code --stale}, or {@code sluice backfill --changed <dataset> --from D --to D}: prints the plan (partitions × steps, in order), runs it with a progress bar and
 * ETA, and ends with a table; exit 1 when a partition failed. Invoking it again continues an
 * unfinished backfill of the same range.
 */
@Command(name = "backfill", mixinStandardHelpOptions = true,
        description = {"Re-run a range of partitions as one backfill run: planned, parallel, resumable.",
                "Invoking it again continues an unfinished backfill of the same range (completed partitions are skipped)."})
final class BackfillCommand implements Callable<Integer> {

    private final SluiceContext ctx;

    @Parameters(index = "0", arity = "0..1", paramLabel = "PIPELINE",
            description = "pipeline name (pipelines/<name>.yaml) or spec file; with --changed, the pipeline declaring the dataset by default")
    String pipeline;

    @Option(names = "--changed", paramLabel = "DATASET", description = "plan from a change: re-run every partition built from"
            + " DATASET's partitions --from … --to (found from lineage and the declared tables), in dependency order, and nothing else")
    String changed;

    @Option(names = "--from", paramLabel = "YYYY-MM-DD", description = "first partition (required unless --stale)")
    LocalDate from;

    @Option(names = "--to", paramLabel = "YYYY-MM-DD", description = "last partition, inclusive (required unless --stale)")
    LocalDate to;

    @Option(names = "--stale", description = "re-run only the partitions last built with another spec/contract/SQL hash than"
            + " today's (default range: every built partition)")
    boolean stale;

    @CommandLine.Mixin
    WaveOptions waves;

    @Option(names = "--strict", description = "design-rule warnings refuse it too (also SLUICE_STRICT=true)")
    boolean strict;

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
        Backfill.Options options = waves.options(System.getProperty("user.name"));
        DatasetRef changedRef = changed == null ? null : parseDataset(changed);
        if (changedRef != null && stale) {
            throw new BadInputException("--stale", -1, null, "--changed and --stale are two ways to plan a backfill; choose one");
        }
        if (pipeline == null && changedRef == null) {
            throw new BadInputException("PIPELINE", -1, null, "name the pipeline to backfill (or --changed DATASET)");
        }
        PipelineSpec spec = pipeline != null ? ctx.loadToRun(pipeline, strict, command.commandLine().getErr()) : declaring(changedRef);
        if (pipeline == null) {
            ctx.loadToRun(spec.file().toString(), strict, command.commandLine().getErr()); // the declaring pipeline is held to the rules too
        }
        GracefulStop.install(() -> { });
        PrintWriter out = command.commandLine().getOut();
        try (Warehouse warehouse = Warehouse.open(spec.warehouse(), waves.poolSize(Warehouse.DEFAULT_POOL_SIZE))) {
            Backfill backfill = new Backfill(new PipelineRunner(warehouse, ctx.home()), Clock.systemUTC());
            if (from == null || to == null) {
                if (!stale) {
                    throw new BadInputException(from == null ? "--from" : "--to", -1, null,
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
            if (spec.partitionKind() != PartitionKind.DAILY) {
                throw new BadInputException("--from/--to", -1, null, "backfills are of daily partitions; pipeline "
                        + spec.name() + " is partitioned " + spec.partitionKind().id());
            }
            if (changedRef != null && (from == null || to == null)) {
                throw new BadInputException(from == null ? "--from" : "--to", -1, null,
                        "--changed needs --from and --to: the partitions of " + changedRef + " that changed");
            }
            BackfillPlan plan = changedRef != null ? backfill.planChanged(spec, changedRef, from, to) : backfill.plan(spec, from, to, rerun, stale);
            if (plan.partitions().isEmpty()) {
                out.println("nothing is downstream of " + changedRef + " in pipeline " + spec.name() + ": nothing to re-run"
                        + (plan.outside().isEmpty() ? "" : " here; downstream outside it (tell their owners): " + String.join(", ", plan.outside())));
                return ExitCodes.OK;
            }
            printPlan(out, plan, Backfill.effective(spec, options), Backfill.oneAtATime(spec).orElse(null));
            if (plan.changed() != null && plan.toRun().isEmpty()) {
                out.println("no partition downstream of " + plan.changed() + " needs a re-run");
                return ExitCodes.OK;
            }
            if (plan.count(Action.MISSING) == plan.partitions().size()) {
                throw new LandingMissingException("no partition of " + from + " … " + to + " has landed files for "
                        + spec.name() + " (the first: " + plan.partitions().get(0).reason() + "); nothing was run or recorded");
            }
            if (dryRun) {
                out.println("dry run: nothing was run");
                return ExitCodes.OK;
            }
            return runPlanned(backfill, spec, plan, options, out, ctx.home());
        }
    }

    /**
     * Runs {@code plan} with a progress bar on the terminal, then prints each partition's outcome,
     * the wall time and the gates' share of it, and the warnings.
     *
     * @return the exit code: OK when every partition completed (or was skipped), STOPPED when a stop
     *     ended it, RUN_FAILED otherwise
     */
    static int runPlanned(Backfill backfill, PipelineSpec spec, BackfillPlan plan, Backfill.Options options, PrintWriter out, Path home) {
        out.flush();
        BackfillReport report;
        long warnings;
        List<String> repeated;
        try (ProgressDisplay bar = new ProgressDisplay(spec.name() + " backfill", plan.partitions().size(), TerminalLines.stderr())) {
            report = backfill.run(spec, plan, options,
                    outcome -> bar.step(outcome.partition() + " " + outcome.status()));
            warnings = bar.warnings();
            repeated = bar.repeatedWarnings();
        }
        RunReport.printTable(out, report.outcomes(), report.elapsedMs());
        out.printf(Locale.ROOT, "backfill %s %s: %d partition(s) in %s wall time; quality gates %s in %d one-pass"
                        + " evaluation(s) (%.1f %% of the wall time)%n",
                report.backfillId(), report.status(), report.outcomes().size(), RunReport.seconds(report.elapsedMs()),
                RunReport.seconds(report.gateMs()), report.gateBatches(),
                report.elapsedMs() == 0 ? 0.0 : 100.0 * report.gateMs() / report.elapsedMs());
        if (report.gateBatches() > 0) {
            out.println("gate time by step: " + report.gateMsByStep().entrySet().stream()
                    .map(e -> e.getKey() + " " + RunReport.seconds(e.getValue())).collect(Collectors.joining(", ")));
        }
        RunReport.printWarnings(out, warnings, repeated, home);
        if (!report.completed()) {
            out.println("Invoking the same command again continues this backfill: completed partitions are skipped,"
                    + " failed ones restart from their failed step.");
        }
        // stopped (exit 4) only when nothing failed: a failed partition with later ones not started after it exits 1
        return report.completed() ? ExitCodes.OK : report.status() == RunStatus.STOPPED ? ExitCodes.STOPPED : ExitCodes.RUN_FAILED;
    }

    /** The pipeline whose tables include {@code dataset}. */
    private PipelineSpec declaring(DatasetRef dataset) {
        List<String> names = new ArrayList<>();
        List<String> broken = new ArrayList<>();
        PipelineSpec found = null;
        try (var files = Files.list(ctx.pipelinesDir())) {
            for (Path f : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                PipelineSpec s;
                try {
                    s = ctx.load(f.toString());
                } catch (RuntimeException e) {
                    broken.add(f.getFileName() + " (" + e.getMessage().lines().findFirst().orElse("") + ")");
                    continue; // a broken spec declares nothing; `sluice validate` names its problems
                }
                if (s.table(dataset).isPresent()) {
                    names.add(s.name());
                    found = s;
                }
            }
        } catch (IOException e) {
            throw new SluiceException("cannot list the pipelines in " + ctx.pipelinesDir() + ": " + e.getMessage(), e);
        }
        if (found == null) {
            throw new BadInputException("--changed", -1, null, "no pipeline in " + ctx.pipelinesDir() + " declares " + dataset
                    + (broken.isEmpty() ? "" : "; these specs could not be loaded (sluice validate names why): " + String.join(", ", broken)));
        }
        if (names.size() > 1) {
            throw new BadInputException("--changed", -1, null, dataset + " is declared by pipelines " + names
                    + ": name the one to backfill");
        }
        return found;
    }

    private static DatasetRef parseDataset(String text) {
        try {
            return DatasetRef.parse(text);
        } catch (RuntimeException e) {
            throw new BadInputException("--changed", -1, null, "'" + text + "' is not a dataset (schema.table): " + e.getMessage());
        }
    }

    /** The plan as run: its partitions, steps, and the parallelism and waves it runs with ({@code why} when not as asked). */
    private void printPlan(PrintWriter out, BackfillPlan plan, Backfill.Options runs, @Nullable String why) {
        if (plan.changed() != null) {
            out.printf(Locale.ROOT, "planned from a change to %s, partitions %s … %s: every partition built from them is re-run,"
                    + " in dependency order (from lineage and the declared tables)%n", plan.changed(), plan.from(), plan.to());
            if (!plan.outside().isEmpty()) {
                out.println("downstream outside pipeline " + plan.pipeline() + " (not re-run here; tell their owners): "
                        + String.join(", ", plan.outside()));
            }
        }
        out.printf(Locale.ROOT, "backfill %s of %s, %s … %s%s: %d partition(s), %d to run (run %d, restart %d, rerun %d, resume %d),"
                        + " %d skipped, %d missing%n",
                plan.resumed() ? plan.backfillId() : dryRun ? "(new)" : plan.backfillId(), plan.pipeline(), plan.from(), plan.to(), plan.resumed() ? " (continued)" : "",
                plan.partitions().size(), plan.toRun().size(), plan.count(Action.RUN), plan.count(Action.RESTART),
                plan.count(Action.RERUN), plan.count(Action.RESUME), plan.count(Action.SKIP), plan.count(Action.MISSING));
        out.println((plan.changed() == null ? "steps of each partition, in order: " : "steps re-run (each partition runs those of the tables it names): ") + String.join(" → ", plan.steps()));
        out.printf(Locale.ROOT, "parallelism %d; quality gates judged in waves of %d partition(s)%s%n", runs.parallelism(), runs.gateBatch(),
                runs.parallelism() == waves.parallelism && runs.gateBatch() == waves.gateBatch ? ""
                        : String.format(Locale.ROOT, " (asked: parallelism %d, waves of %d; one partition at a time, in order: %s)",
                                waves.parallelism, waves.gateBatch, why));
        out.printf(Locale.ROOT, "%-12s %-8s %s%n", "partition", "action", "why");
        for (PlannedPartition p : plan.partitions()) {
            out.printf(Locale.ROOT, "%-12s %-8s %s%n", p.partition(), p.action().name().toLowerCase(Locale.ROOT), p.reason());
        }
    }
}
