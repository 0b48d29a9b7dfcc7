package dev.sluice.app.cli;

import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.quarantine.BatchReprocess;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.BadInputException;
import dev.sluice.hotpath.LiveQuarantine;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.warehouse.meta.QuarantineTable;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.jooq.Condition;
import org.jooq.impl.DSL;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code sluice quarantine list|show|reprocess}: the one quarantine store ({@code sluice.quarantine})
 * of batch rows and stream events alike.
 */
@Command(name = "quarantine", mixinStandardHelpOptions = true,
        description = "The quarantine of batch rows and stream events: list, show one, reprocess.",
        subcommands = {QuarantineCommand.ListCommand.class, QuarantineCommand.ShowCommand.class, QuarantineCommand.ReprocessCommand.class})
final class QuarantineCommand {

    /** {@code list <pipeline> [--dataset D] [--status S] [--limit N]}: counts by dataset, rule and status, then the newest entries. */
    @Command(name = "list", mixinStandardHelpOptions = true, description = "Counts by dataset, rule and status, then the newest entries.")
    static final class ListCommand implements Callable<Integer> {
        private final SluiceContext ctx;

        @Parameters(index = "0", paramLabel = "PIPELINE", description = "pipeline name (pipelines/<name>.yaml) or spec file")
        String pipeline;

        @Option(names = "--dataset", description = "only this dataset (schema.table)")
        String dataset;

        @Option(names = "--status", description = "OPEN, REPROCESSED or RESOLVED")
        String status;

        @Option(names = "--limit", defaultValue = "20", description = "entries shown (default ${DEFAULT-VALUE})")
        int limit;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec command;

        ListCommand(SluiceContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public Integer call() {
            PipelineSpec spec = ctx.loadForInspection(pipeline);
            PrintWriter out = command.commandLine().getOut();
            Condition where = DSL.field(DSL.name("pipeline")).eq(spec.name());
            if (dataset != null) {
                where = where.and(DSL.field(DSL.name("dataset")).eq(dataset));
            }
            if (status != null) {
                where = where.and(DSL.field(DSL.name("status")).eq(status.toUpperCase(Locale.ROOT)));
            }
            try (Warehouse w = Warehouse.open(spec.warehouse())) {
                var q = QuarantineTable.TABLE;
                out.printf(Locale.ROOT, "%-32s %-24s %-12s %10s%n", "dataset", "rule", "status", "entries");
                for (var r : w.dsl().select(DSL.field(DSL.name("dataset")), DSL.field(DSL.name("rule_id")), DSL.field(DSL.name("status")), DSL.count())
                        .from(q).where(where).groupBy(DSL.field(DSL.name("dataset")), DSL.field(DSL.name("rule_id")), DSL.field(DSL.name("status")))
                        .orderBy(1, 2, 3).fetch()) {
                    out.printf(Locale.ROOT, "%-32s %-24s %-12s %,10d%n", r.get(0), r.get(1), r.get(2), r.get(3, Integer.class));
                }
                out.println();
                for (var r : w.dsl().select(DSL.field(DSL.name("quarantine_id")), DSL.field(DSL.name("partition_key")), DSL.field(DSL.name("source")),
                                DSL.field(DSL.name("source_pos")), DSL.field(DSL.name("reason")))
                        .from(q).where(where).orderBy(DSL.field(DSL.name("quarantine_id")).desc()).limit(limit).fetch()) {
                    out.printf(Locale.ROOT, "#%s %s %s@%s: %s%n", r.get(0), r.get(1), r.get(2), r.get(3), r.get(4));
                }
            }
            return ExitCodes.OK;
        }
    }

    /** {@code show <pipeline> <id>}: one entry whole, its raw record included. */
    @Command(name = "show", mixinStandardHelpOptions = true, description = "One entry whole, with its raw record.")
    static final class ShowCommand implements Callable<Integer> {
        private final SluiceContext ctx;

        @Parameters(index = "0", paramLabel = "PIPELINE", description = "pipeline name (pipelines/<name>.yaml) or spec file")
        String pipeline;

        @Parameters(index = "1", paramLabel = "ID", description = "the quarantine entry id (sluice quarantine list shows them)")
        long id;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec command;

        ShowCommand(SluiceContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public Integer call() {
            PipelineSpec spec = ctx.loadForInspection(pipeline);
            try (Warehouse w = Warehouse.open(spec.warehouse())) {
                var r = w.dsl().select().from(QuarantineTable.TABLE)
                        .where(DSL.field(DSL.name("quarantine_id")).eq(id), DSL.field(DSL.name("pipeline")).eq(spec.name())).fetchOne();
                if (r == null) {
                    throw new BadInputException("ID", -1, null, "no quarantine entry #" + id + " of pipeline " + spec.name());
                }
                PrintWriter out = command.commandLine().getOut();
                for (var f : r.fields()) {
                    out.printf(Locale.ROOT, "%-16s %s%n", f.getName().toLowerCase(Locale.ROOT), r.get(f));
                }
            }
            return ExitCodes.OK;
        }
    }

    /**
     * {@code reprocess <pipeline>}: the hot path's OPEN entries decoded and judged again under the
     * current contract and rules; those that pass are re-injected (once) and marked REPROCESSED.
     * Then every partition with OPEN batch rows is re-run from Bronze for its Silver tables and what
     * is downstream of them ({@link BatchReprocess}); rows that now pass are in the new Silver
     * version and their entries marked REPROCESSED. Exit 0 when every run completed, else 1.
     */
    @Command(name = "reprocess", mixinStandardHelpOptions = true,
            description = {"Judge the OPEN quarantine entries again under the current contract and rules (idempotent).",
                    "Hot-path events that pass are re-injected once; partitions with quarantined batch rows are re-run from Bronze",
                    "for their Silver tables and everything downstream. Entries that now pass are marked REPROCESSED."})
    static final class ReprocessCommand implements Callable<Integer> {
        private final SluiceContext ctx;

        @Parameters(index = "0", paramLabel = "PIPELINE", description = "pipeline name (pipelines/<name>.yaml) or spec file")
        String pipeline;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec command;

        ReprocessCommand(SluiceContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public Integer call() {
            PipelineSpec spec = ctx.load(pipeline);
            PrintWriter out = command.commandLine().getOut();
            boolean ok = true;
            try (Warehouse w = Warehouse.open(spec.warehouse())) {
                if (spec.hotPath() != null) {
                    LiveQuarantine.Result r = LiveQuarantine.reprocess(spec, w);
                    out.printf(Locale.ROOT, "hot path: %,d event(s) pass the current contract and rules and were re-injected (%,d newly counted);"
                            + " %,d still fail%n", r.reinjected(), r.counted(), r.stillFailingCount());
                    r.stillFailing().forEach(f -> out.println("  " + f));
                }
                List<BatchReprocess.Outcome> batch = BatchReprocess.reprocess(new PipelineRunner(w, ctx.home()), w.dsl(), spec);
                if (batch.isEmpty()) {
                    out.println("batch: no partition of " + spec.name() + " has OPEN quarantined rows");
                }
                for (BatchReprocess.Outcome o : batch) {
                    ok &= o.run().completed();
                    out.printf(Locale.ROOT, "batch %s: re-ran %s (%s, run %s): %,d of %,d OPEN row(s) now pass (REPROCESSED), %,d still OPEN%s%n",
                            o.partition(), String.join(", ", o.tables()), o.run().status(), o.run().runId(), o.reprocessed(), o.open(),
                            o.stillOpen(), o.run().failure() == null ? "" : "; " + o.run().failure());
                }
            }
            return ok ? ExitCodes.OK : ExitCodes.RUN_FAILED;
        }
    }
}
