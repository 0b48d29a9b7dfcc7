package dev.sluice.app.cli;

import dev.sluice.control.quality.QualityResultRepository;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.BadInputException;
import dev.sluice.core.Partition;
import dev.sluice.core.SluiceException;
import dev.sluice.warehouse.Warehouse;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.jooq.Field;
import org.jooq.JSONFormat;
import org.jooq.Record;
import org.jooq.Result;
import org.jooq.impl.DSL;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

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
            format = format.toLowerCase(Locale.ROOT);
            if (!format.equals("table") && !format.equals("json")) {
                throw new BadInputException("--format", -1, null, "'" + format + "' is not table or json");
            }
            PipelineSpec spec = ctx.loadForInspection(pipeline);
            Partition p;
            try {
                p = Partition.parseAny(partition);
            } catch (SluiceException e) {
                throw new BadInputException("--partition", -1, null, e.getMessage());
            }
            PrintWriter out = command.commandLine().getOut();
            try (Warehouse w = Warehouse.open(spec.warehouse())) {
                Result<? extends Record> all = new QualityResultRepository(w.dsl()).latest(spec.name(), p);
                List<String> names = format.equals("json") ? List.of("dataset", "partition_key", "run_id",
                        "boundary", "check_id", "expectation", "family", "severity", "status", "metric", "observed_value", "threshold",
                        "message", "element_count", "unexpected_count", "unexpected_json", "gate_elapsed_ms", "evaluated_at")
                        : List.of("dataset", "boundary", "check_id", "family", "severity", "status", "metric",
                                "unexpected_count", "message");
                List<Field<Object>> cols = names.stream().map(n -> DSL.field(DSL.name(n))).toList();
                Result<Record> view = w.dsl().newResult(cols.toArray(new Field<?>[0]));
                for (Record rec : all) {
                    Record row = w.dsl().newRecord(cols.toArray(new Field<?>[0]));
                    for (Field<Object> c : cols) {
                        var f = rec.field(c.getName()) != null ? rec.field(c.getName()) : rec.field(c.getName().toUpperCase(Locale.ROOT));
                        row.set(c, f == null ? null : rec.get(f));
                    }
                    row.changed(false);
                    view.add(row);
                }
                if (format.equals("json")) {
                    out.println(view.formatJSON(new JSONFormat().header(false).recordFormat(JSONFormat.RecordFormat.OBJECT)));
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
