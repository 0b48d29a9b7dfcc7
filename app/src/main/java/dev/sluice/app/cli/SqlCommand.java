package dev.sluice.app.cli;

import dev.sluice.batch.engine.lakehouse.LakehouseSql;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.BadInputException;
import dev.sluice.core.SluiceException;
import dev.sluice.warehouse.Warehouse;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Queries;
import org.jooq.Result;
import org.jooq.Select;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;
import org.jooq.impl.ParserException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code sluice sql "SELECT …"}: a query on a pipeline's warehouse (a lakehouse pipeline's: Spark SQL
 * on its Iceberg tables, {@link LakehouseSql}), printed whole as a table, CSV or JSON
 * ({@link QueryResultPrinter}); decimals (H2's DECFLOAT among them) as plain decimals, never in
 * scientific notation.
 */
@Command(name = "sql", mixinStandardHelpOptions = true, description = "Run a query on a pipeline's warehouse and print the result as a table, CSV or JSON.")
final class SqlCommand implements Callable<Integer> {

    private final SluiceContext ctx;

    @Parameters(index = "0", paramLabel = "QUERY", description = "the SQL query")
    String query;

    @Option(names = "--pipeline", defaultValue = "flights", description = "whose warehouse (default: ${DEFAULT-VALUE})")
    String pipeline;

    @Option(names = "--max-rows", defaultValue = "50", description = "rows to print (default: ${DEFAULT-VALUE})")
    int maxRows;

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
        if (!Set.of("SELECT", "WITH", "VALUES", "SHOW", "EXPLAIN", "TABLE").contains(first)) {
            throw new BadInputException("QUERY", -1, null,
                    "sluice sql only reads: start the query with SELECT, WITH, VALUES, SHOW, EXPLAIN or TABLE");
        }
        PipelineSpec spec = ctx.loadForInspection(pipeline);
        try (Warehouse warehouse = Warehouse.open(spec.warehouse())) {
            if (spec.engine().lakehouse()) {
                return lakehouse(spec, warehouse);
            }
            Queries parsed;
            try {
                parsed = warehouse.dsl().parser().parse(query);
            } catch (ParserException e) {
                throw new BadInputException("QUERY", -1, null, "cannot parse the query: "
                        + e.getMessage().lines().findFirst().orElse(""));
            }
            if (parsed.queries().length != 1 || !(parsed.queries()[0] instanceof Select<?>)) {
                throw new BadInputException("QUERY", -1, null,
                        "sluice sql runs exactly one SELECT; it never writes");
            }
            Result<?> result = warehouse.dsl().connectionResult(c -> {
                c.setAutoCommit(false);
                try {
                    if (warehouse.isPostgres()) {
                        c.createStatement().execute("SET TRANSACTION READ ONLY");
                    }
                    return DSL.using(c, warehouse.dialect()).fetch(query);
                } finally {
                    c.rollback();
                    c.setAutoCommit(true);
                }
            });
            print(plainDecimals(warehouse.dsl(), result), result.size());
            return ExitCodes.OK;
        } catch (DataAccessException e) {
            throw new SluiceException("the query failed: " + e.getCause().getMessage());
        }
    }

    /** The query on a lakehouse pipeline: Spark SQL on its Iceberg tables, printed like a warehouse result. */
    private int lakehouse(PipelineSpec spec, Warehouse warehouse) {
        LakehouseSql.Result r = LakehouseSql.query(spec, warehouse, query, maxRows);
        DSLContext dsl = DSL.using(org.jooq.SQLDialect.DEFAULT);
        Field<?>[] fields = r.columns().stream().map(c -> DSL.field(DSL.name(c))).toArray(Field<?>[]::new);
        Result<org.jooq.Record> result = dsl.newResult(fields);
        for (List<Object> row : r.rows()) {
            org.jooq.Record rec = dsl.newRecord(fields);
            for (int i = 0; i < fields.length; i++) {
                rec.set(DSL.field(DSL.name(r.columns().get(i))), row.get(i));
            }
            rec.changed(false);
            result.add(rec);
        }
        print(plainDecimals(dsl, result), r.total());
        return ExitCodes.OK;
    }

    private void print(Result<?> result, long total) {
        List<String> columns = Arrays.stream(result.fields()).map(Field::getName).toList();
        List<List<Object>> rows = result.stream().map(r -> Arrays.asList(r.intoArray())).toList();
        QueryResultPrinter.print(command.commandLine().getOut(), format, columns, rows, maxRows, total);
    }

    /**
     * {@code result} with its decimals written plainly: {@code 1E+1} (a DECFLOAT's negative scale) as
     * {@code 10}; a column with a value that would still print with an exponent (below 1e-6) becomes
     * text written with {@link BigDecimal#toPlainString()}. Other values are kept as they are.
     */
    @SuppressWarnings("unchecked")
    static Result<?> plainDecimals(DSLContext dsl, Result<?> result) {
        Field<?>[] fields = result.fields();
        boolean[] asText = new boolean[fields.length];
        boolean any = false;
        for (int i = 0; i < fields.length; i++) {
            // by value: a DECFLOAT column's declared type is Object (jOOQ does not know H2's DECFLOAT)
            for (org.jooq.Record r : result) {
                if (r.get(i) instanceof BigDecimal v) {
                    any = true;
                    if (unscientific(v).toString().contains("E")) {
                        asText[i] = true;
                        break;
                    }
                }
            }
        }
        if (!any) {
            return result;
        }
        Field<?>[] shown = new Field<?>[fields.length];
        for (int i = 0; i < fields.length; i++) {
            shown[i] = asText[i] ? DSL.field(DSL.name(fields[i].getName()), String.class) : fields[i];
        }
        Result<org.jooq.Record> out = dsl.newResult(shown);
        for (org.jooq.Record r : result) {
            org.jooq.Record copy = dsl.newRecord(shown);
            for (int i = 0; i < fields.length; i++) {
                Object v = r.get(i);
                if (v instanceof BigDecimal d) {
                    v = asText[i] ? d.toPlainString() : unscientific(d);
                }
                copy.set((Field<Object>) shown[i], v);
            }
            copy.changed(false); // else the table marks every value changed (*)
            out.add(copy);
        }
        return out;
    }

    /** {@code d} at scale 0 or more: the same number, printed without an exponent unless it is below 1e-6. */
    private static BigDecimal unscientific(BigDecimal d) {
        return d.scale() < 0 ? d.setScale(0) : d;
    }
}
