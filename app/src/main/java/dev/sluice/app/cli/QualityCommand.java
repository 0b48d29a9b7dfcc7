package dev.sluice.app.cli;

import dev.sluice.batch.gate.QualityResultRepository;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.Partition;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.jooq.Record;
import org.jooq.Result;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code sluice quality show <pipeline> --partition P [--format table|json]}: the partition's current gate results. */
@Command(name = "quality", mixinStandardHelpOptions = true, description = "Quality gate results.",
        subcommands = {QualityCommand.Show.class})
final class QualityCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec command;

    @Override
    public void run() {
        command.commandLine().usage(command.commandLine().getOut());
    }

    /** The latest result of every check of every dataset of the pipeline for one partition. */
    @Command(name = "show", mixinStandardHelpOptions = true,
            description = "The latest result of each check for a partition (" + QualityResultRepository.TABLE_NAME + ").")
    static final class Show implements Callable<Integer> {
        private final SluiceContext ctx;

        @Parameters(index = "0", paramLabel = "PIPELINE", description = "pipeline name (pipelines/<name>.yaml) or spec file")
        String pipeline;

        @Option(names = "--partition", required = true, paramLabel = "YYYY-MM-DD|none", description = "the partition judged (none: a reference snapshot)")
        String partition;

        @Option(names = "--format", defaultValue = "table", description = "table or json (default: ${DEFAULT-VALUE})")
        String format;

        @CommandLine.Spec
        CommandLine.Model.CommandSpec command;

        Show(SluiceContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public Integer call() {
            format = format.toLowerCase(java.util.Locale.ROOT);
            if (!format.equals("table") && !format.equals("json")) {
                throw new dev.sluice.core.BadInputException("--format", -1, null, "'" + format + "' is not table or json");
            }
            PipelineSpec spec = ctx.loadForInspection(pipeline);
            Partition p;
            try {
                p = Partition.parseAny(partition);
            } catch (dev.sluice.core.SluiceException e) {
                throw new dev.sluice.core.BadInputException("--partition", -1, null, e.getMessage());
            }
            PrintWriter out = command.commandLine().getOut();
            try (Warehouse w = Warehouse.open(spec.warehouse())) {
                Result<? extends Record> all = new QualityResultRepository(w.dsl()).latest(spec.name(), p);
                java.util.List<String> names = format.equals("json") ? java.util.List.of("dataset", "partition_key", "run_id",
                        "boundary", "check_id", "expectation", "family", "severity", "status", "metric", "observed_value", "threshold",
                        "message", "element_count", "unexpected_count", "unexpected_json", "gate_elapsed_ms", "evaluated_at")
                        : java.util.List.of("dataset", "boundary", "check_id", "family", "severity", "status", "metric",
                                "unexpected_count", "message");
                java.util.List<org.jooq.Field<Object>> cols = names.stream().map(n -> org.jooq.impl.DSL.field(org.jooq.impl.DSL.name(n))).toList();
                Result<Record> view = w.dsl().newResult(cols.toArray(new org.jooq.Field<?>[0]));
                for (Record rec : all) {
                    Record row = w.dsl().newRecord(cols.toArray(new org.jooq.Field<?>[0]));
                    for (org.jooq.Field<Object> c : cols) {
                        var f = rec.field(c.getName()) != null ? rec.field(c.getName()) : rec.field(c.getName().toUpperCase(java.util.Locale.ROOT));
                        row.set(c, f == null ? null : rec.get(f));
                    }
                    row.changed(false);
                    view.add(row);
                }
                if (format.equals("json")) {
                    out.println(view.formatJSON(new org.jooq.JSONFormat().header(false).recordFormat(org.jooq.JSONFormat.RecordFormat.OBJECT)));
                } else if (view.isEmpty()) {
                    out.println(spec.name() + " " + p + ": no quality results recorded");
                } else {
                    out.println(view.format(1000));
                }
            }
            return ExitCodes.OK;
        }
    }
}
