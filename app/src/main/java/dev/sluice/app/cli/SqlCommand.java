package dev.sluice.app.cli;

import dev.sluice.config.PipelineSpec;
import dev.sluice.core.BadInputException;
import dev.sluice.engine.LayerEngines;
import dev.sluice.engine.QueryResult;
import dev.sluice.warehouse.Warehouse;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code sluice sql "SELECT …"}: a query on a pipeline's warehouse (a lakehouse pipeline's: Spark SQL
 * on its Iceberg tables, {@link LakehouseSql}), printed whole as a table, CSV or JSON
 * ({@link QueryResultPrinter}). Values are read as JDBC gives them exactly: times, timestamps and
 * dates as {@code java.time} values (a {@code TIME(6)} keeps its microseconds), binary values and
 * arrays as themselves (printed as hex and as lists), decimals as exact {@code BigDecimal}s
 * (printed without exponent). Only the rows printed are kept; the rest are counted.
 */
@Command(name = "sql", mixinStandardHelpOptions = true, description = "Run a query on a pipeline's warehouse and print the result as a table, CSV or JSON.")
final class SqlCommand implements Callable<Integer> {

    /** Rows a table shows unless {@code --max-rows} says otherwise; CSV and JSON print every row. */
    static final int TABLE_ROWS = 50;

    private final SluiceContext ctx;

    @Parameters(index = "0", paramLabel = "QUERY", description = "the SQL query")
    String query;

    @Option(names = "--pipeline", defaultValue = "flights", description = "whose warehouse (default: ${DEFAULT-VALUE})")
    String pipeline;

    @Option(names = "--max-rows", description = "rows to print, at least 1 (default: " + TABLE_ROWS
            + " for a table, every row for csv and json; rows left out are counted on stderr)")
    Integer maxRows;

    @Option(names = "--format", defaultValue = "table",
            description = "table (every value whole), csv (RFC 4180, with a header) or json (an array of objects) (default: ${DEFAULT-VALUE})")
    QueryResultPrinter.Format format;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec command;

    SqlCommand(SluiceContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        String first = query.stripLeading().split("\\s+", 2)[0].toUpperCase(Locale.ROOT);
        if (!Set.of("SELECT", "WITH", "VALUES", "TABLE").contains(first)) {
            throw new BadInputException("QUERY", -1, null,
                    "sluice sql only reads: start the query with SELECT, WITH, VALUES or TABLE");
        }
        if (maxRows != null && maxRows < 1) {
            throw new BadInputException("--max-rows", -1, null, maxRows + ": print at least 1 row");
        }
        int limit = maxRows != null ? maxRows : format == QueryResultPrinter.Format.table ? TABLE_ROWS : Integer.MAX_VALUE;
        PipelineSpec spec = ctx.loadForInspection(pipeline);
        try (Warehouse warehouse = Warehouse.open(spec.warehouse())) {
            // the engine's own SQL: the warehouse database's, or Spark SQL over a lakehouse's Iceberg tables
            return print(LayerEngines.on(warehouse).forPipeline(spec).query(query, limit), limit);
        }
    }

    private int print(QueryResult rows, int limit) {
        if (format == QueryResultPrinter.Format.json) {
            Set<String> seen = new HashSet<>();
            rows.columns().stream().filter(c -> !seen.add(c)).findFirst().ifPresent(c -> {
                throw new BadInputException("QUERY", -1, c, "the result names column " + c + " twice, and a JSON object holds"
                        + " a name once: name the columns apart (AS)");
            });
        }
        QueryResultPrinter.print(command.commandLine().getOut(), format, rows.columns(), rows.rows(), limit, rows.total());
        if (format != QueryResultPrinter.Format.table && rows.total() > rows.rows().size()) {
            // stdout stays the data alone; a script still learns that rows were left out
            command.commandLine().getErr().println((rows.total() - rows.rows().size()) + " more row(s) not printed (--max-rows "
                    + limit + ")");
        }
        return ExitCodes.OK;
    }
}
