package dev.sluice.app.cli;

import dev.sluice.engine.LayerEngines;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.BadInputException;
import dev.sluice.operations.purge.IngestedLineagePurge;
import dev.sluice.operations.purge.Purge;
import dev.sluice.warehouse.Warehouse;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Period;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code sluice purge <pipeline> --older-than D [--orphan-grace G] [--dry-run]}: removes superseded
 * partition versions, superseded Bronze loads, old lineage and old Spring Batch metadata older than
 * D, never of a partition inside the pipeline's backfill window, and on a lakehouse pipeline the
 * orphan files older than G ({@link Purge}); with {@code --ingested-lineage}
 * instead the lineage other tools posted, of runs older than D ({@link IngestedLineagePurge}).
 */
@Command(name = "purge", mixinStandardHelpOptions = true,
        description = {"Remove superseded versions and loads, old lineage and job metadata older than a cutoff.",
                "Partitions inside the pipeline's backfill_window are never touched; the published version and current load always stay."})
final class PurgeCommand implements Callable<Integer> {

    private final SluiceContext ctx;

    @Parameters(index = "0", paramLabel = "PIPELINE", description = "pipeline name or spec file")
    String pipeline;

    @Option(names = "--older-than", required = true, paramLabel = "D",
            description = "an ISO-8601 period or duration: P90D, P1Y, PT12H; records older than now − D go")
    String olderThan;

    @Option(names = "--orphan-grace", paramLabel = "G", defaultValue = "P3D",
            description = {"lakehouse: orphan files (under a table's location, referenced by no snapshot) last modified before now − G go,"
                    + " whatever D; younger ones may be a write in flight (default ${DEFAULT-VALUE}, as Iceberg's DeleteOrphanFiles)"})
    String orphanGrace;

    @Option(names = "--dry-run", description = "count what would go, remove nothing")
    boolean dryRun;

    @Option(names = "--ingested-lineage", description = {"instead: the lineage other tools posted to sluice serve, of runs that ended before now − D",
            "(runs, events, edges, column lineage; the dataset graph keeps what is still referred to), in PIPELINE's warehouse"})
    boolean ingestedLineage;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec command;

    PurgeCommand(SluiceContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        Duration age = parse("--older-than", olderThan);
        Duration grace = parse("--orphan-grace", orphanGrace);
        PipelineSpec spec = ctx.load(pipeline);
        PrintWriter out = command.commandLine().getOut();
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            if (ingestedLineage) {
                IngestedLineagePurge.Report r = new IngestedLineagePurge(w, Clock.systemUTC()).run(age, dryRun);
                out.printf(Locale.ROOT, "%s the lineage other tools posted to %s's warehouse, of runs that ended before %s%n",
                        dryRun ? "would purge" : "purged", spec.name(), r.cutoff());
                r.removed().forEach((what, n) -> out.printf(Locale.ROOT, "  %-30s %,12d%n", what, n));
                return ExitCodes.OK;
            }
            Purge.Report r = new Purge(w, Clock.systemUTC()).run(spec, age, grace, dryRun);
            if (r.windowStart() == null) {
                out.println("pipeline " + spec.name() + " declares no backfill_window: every partition may still be backfilled,"
                        + " so nothing is purged (declare backfill_window in " + spec.file().getFileName() + ")");
                return ExitCodes.OK;
            }
            out.printf(Locale.ROOT, "%s %s: records older than %s, of partitions before %s (the backfill window %s is kept)%s%n",
                    dryRun ? "would purge" : "purged", spec.name(), r.cutoff(), r.windowStart(), spec.backfillWindow(),
                    LayerEngines.provider(spec).describe(spec).keepsFiles() ? "; orphan files older than " + orphanGrace : "");
            r.removed().forEach((what, n) -> out.printf(Locale.ROOT, "  %-30s %,12d%n", what, n));
            return ExitCodes.OK;
        }
    }

    private static Duration parse(String option, String text) {
        Duration d = parseAny(option, text);
        if (d.isNegative()) {
            throw new BadInputException(option, -1, null, "'" + text + "' is negative");
        }
        return d;
    }

    private static Duration parseAny(String option, String text) {
        try {
            return Duration.parse(text);
        } catch (DateTimeParseException e) {
            try {
                Period p = Period.parse(text);
                if (p.getYears() != 0 || p.getMonths() != 0) {
                    return Duration.ofDays(Math.round(p.getYears() * 365.25 + p.getMonths() * 30.44) + p.getDays());
                }
                return Duration.ofDays(p.getDays());
            } catch (DateTimeParseException e2) {
                throw new BadInputException(option, -1, null, "'" + text + "' is not an ISO-8601 period or duration (P90D, P1Y, PT12H)");
            }
        }
    }
}
