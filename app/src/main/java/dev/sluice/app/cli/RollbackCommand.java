package dev.sluice.app.cli;

import dev.sluice.control.version.PartitionVersions;
import dev.sluice.engine.LayerEngine;
import dev.sluice.engine.LayerEngines;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.BadInputException;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Layer;
import dev.sluice.core.Partition;
import dev.sluice.core.SluiceException;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.warehouse.meta.RollbackLogTable;
import java.util.concurrent.Callable;
import org.springframework.transaction.support.TransactionTemplate;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sluice rollback <pipeline> <dataset> --partition P [--to-version V] --reason R}: publishes
 * a kept earlier version of a Silver/Gold partition again, atomically, recorded with who, when and why:
 * the one named, or the newest kept one before the published one that was published itself.
 * Asking for the version already published (with {@code --to-version}, or by repeating a plain
 * rollback) changes nothing and exits 0 ("already at version V"); a version that is not kept, or none
 * before the published one, is exit 2.
 */
@Command(name = "rollback", mixinStandardHelpOptions = true,
        description = "Publish a kept earlier version of a Silver/Gold partition again (recorded in " + RollbackLogTable.NAME + ").")
final class RollbackCommand implements Callable<Integer> {

    private final SluiceContext ctx;

    @Parameters(index = "0", paramLabel = "PIPELINE", description = "pipeline name (pipelines/<name>.yaml) or spec file")
    String pipeline;

    @Parameters(index = "1", paramLabel = "DATASET", description = "a Silver or Gold table, schema.table, e.g. gold.airport_daily_delays")
    String dataset;

    @Option(names = "--partition", required = true, paramLabel = "YYYY-MM-DD|none",
            description = "the partition to roll back (none: a reference snapshot)")
    String partition;

    @Option(names = "--to-version", paramLabel = "V", description = "the version to publish (default: the newest kept one before the published that was published itself, not one whose gate failed)")
    Integer toVersion;

    @Option(names = "--reason", required = true, description = "why (recorded)")
    String reason;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec command;

    RollbackCommand(SluiceContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        PipelineSpec spec = ctx.loadForInspection(pipeline);
        DatasetRef ref;
        try {
            ref = DatasetRef.parse(dataset);
        } catch (IllegalArgumentException e) {
            throw new BadInputException("DATASET", -1, null, e.getMessage());
        }
        var table = spec.table(ref).filter(t -> t.layer() != Layer.BRONZE).orElseThrow(() -> new BadInputException(
                "DATASET", -1, null, dataset + " is not a Silver or Gold table of pipeline " + spec.name()));
        Partition p = !table.partitioned() ? Partition.NONE : Partition.parseAny(partition);
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            LayerEngine engine = LayerEngines.on(w).forPipeline(spec);
            engine.reconcilePublication(table, p); // a rollback of it a kill interrupted is completed first: the published version is then true
            PartitionVersions versions = new PartitionVersions(w.dsl());
            int from = versions.published(table.table(), p).orElse(0);
            // asked for the version already published, or a plain rollback repeated after the one that published it:
            // the wish is met, nothing changes, nothing is recorded
            var last = versions.lastRollback(table.table(), p).filter(r -> r.toVersion() == from && r.fromVersion() > r.toVersion());
            if (from > 0 && (toVersion != null ? toVersion == from : last.isPresent())) {
                command.commandLine().getOut().println(ref + " partition " + p + ": already at version " + from
                        + last.map(r -> " (rolled back from " + r.fromVersion() + " by " + r.requestedBy() + " at " + r.at() + ")").orElse("")
                        + "; nothing changed. Kept versions " + engine.keptVersions(table, p) + (toVersion == null ? ": --to-version V publishes another" : ""));
                return ExitCodes.OK;
            }
            int to;
            try {
                to = new TransactionTemplate(w.transactionManager()).execute(status ->
                        engine.rollback(table, p, toVersion, System.getProperty("user.name"), reason));
            } catch (SluiceException e) {
                // nothing published, no earlier version, or not that one: a request that cannot be met (exit 2), not a failed run
                throw new BadInputException(toVersion != null ? "--to-version" : "DATASET", -1, null, e.getMessage(), e);
            }
            command.commandLine().getOut().println(ref + " partition " + p + ": published version " + to
                    + " (was " + from + "); kept versions " + engine.keptVersions(table, p));
            command.commandLine().getOut().println("Tables built from it are not rebuilt: re-run them with --rerun if they must follow.");
        }
        return ExitCodes.OK;
    }
}
