package dev.sluice.app.cli;

import dev.sluice.warehouse.Warehouse;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.SluiceException;
import java.util.concurrent.Callable;
import org.jooq.Result;
import org.jooq.exception.DataAccessException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code sluice sql "SELECT …"}: a query on a pipeline's warehouse, printed as a table. */
@Command(name = "sql", mixinStandardHelpOptions = true, description = "Run a query on a pipeline's warehouse and print the result as a table.")
final class SqlCommand implements Callable<Integer> {

    private final SluiceContext ctx;

    @Parameters(index = "0", paramLabel = "QUERY", description = "the SQL query")
    String query;

    @Option(names = "--pipeline", defaultValue = "flights", description = "whose warehouse (default: ${DEFAULT-VALUE})")
    String pipeline;

    @Option(names = "--max-rows", defaultValue = "50", description = "rows to print (default: ${DEFAULT-VALUE})")
    int maxRows;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec command;

    SqlCommand(SluiceContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        String first = query.stripLeading().split("\\s+", 2)[0].toUpperCase(java.util.Locale.ROOT);
        if (!java.util.Set.of("SELECT", "WITH", "VALUES", "SHOW", "EXPLAIN", "TABLE").contains(first)) {
            throw new dev.sluice.core.BadInputException("QUERY", -1, null,
                    "sluice sql only reads: start the query with SELECT, WITH, VALUES, SHOW, EXPLAIN or TABLE");
        }
        PipelineSpec spec = ctx.loadForInspection(pipeline);
        try (Warehouse warehouse = Warehouse.open(spec.warehouse())) {
            org.jooq.Queries parsed;
            try {
                parsed = warehouse.dsl().parser().parse(query);
            } catch (org.jooq.impl.ParserException e) {
                throw new dev.sluice.core.BadInputException("QUERY", -1, null, "cannot parse the query: "
                        + e.getMessage().lines().findFirst().orElse(""));
            }
            if (parsed.queries().length != 1 || !(parsed.queries()[0] instanceof org.jooq.Select<?>)) {
                throw new dev.sluice.core.BadInputException("QUERY", -1, null,
                        "sluice sql runs exactly one SELECT; it never writes");
            }
            Result<?> result = warehouse.dsl().connectionResult(c -> {
                c.setAutoCommit(false);
                try {
                    if (warehouse.isPostgres()) {
                        c.createStatement().execute("SET TRANSACTION READ ONLY");
                    }
                    return org.jooq.impl.DSL.using(c, warehouse.dialect()).fetch(query);
                } finally {
                    c.rollback();
                    c.setAutoCommit(true);
                }
            });
            command.commandLine().getOut().println(result.format(maxRows));
            command.commandLine().getOut().println(result.size() + " row(s)");
            return ExitCodes.OK;
        } catch (DataAccessException e) {
            throw new SluiceException("the query failed: " + e.getCause().getMessage());
        }
    }
}
