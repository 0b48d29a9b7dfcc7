package dev.sluice.engine.lakehouse;

import dev.sluice.engine.lakehouse.internal.SparkParser;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.QuarantineRule;
import dev.sluice.config.SpecProblem;
import dev.sluice.config.TableSpec;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Layer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What {@code sluice validate} adds for a lakehouse pipeline: every Silver and Gold table's
 * {@code sql} and every quarantine rule's {@code when}, as the lakehouse engine hands them to
 * Spark ({@link SparkDialect#toSpark}, {@code {input}} standing for the input table,
 * {@code {partition}} for a string literal), parsed by Spark SQL's own parser. Syntax only: names
 * of tables, columns and functions are not resolved. Stateless and thread-safe.
 */
public final class SparkSqlCheck {

    /** What {@code {partition}} stands for while parsing: a partition key is a string value. */
    static final String PARTITION_LITERAL = "'2001-01-02'";

    private SparkSqlCheck() {
    }

    /**
     * The SQL of {@code spec} Spark cannot parse, one problem per table SQL or rule: key path
     * {@code layers.<layer>[i].sql} or {@code layers.silver[i].quarantine[j].when}, the value the
     * offending line of the spec's SQL (trimmed), the reason naming that line (1-based within the
     * SQL), the token Spark stopped at and Spark's one-line message, e.g. {@code Spark SQL cannot
     * parse line 5 near 'PRECISION': extra input 'PRECISION'}.
     *
     * @param spec a valid spec, not null
     * @return the problems in table order, then rule order (called for a lakehouse pipeline only:
     *     a warehouse pipeline's SQL is run by H2 or PostgreSQL, never by Spark)
     */
    public static List<SpecProblem> check(PipelineSpec spec) {
        List<SpecProblem> problems = new ArrayList<>();
        String file = spec.file().toString();
        for (Layer layer : List.of(Layer.SILVER, Layer.GOLD)) {
            List<TableSpec> tables = spec.tables(layer);
            for (int i = 0; i < tables.size(); i++) {
                TableSpec table = tables.get(i);
                String path = "layers." + layer.name().toLowerCase(Locale.ROOT) + "[" + i + "]";
                SparkParser.parseQuery(forSpark(table.sql(), table))
                        .ifPresent(f -> problems.add(problem(file, path + ".sql", table.sql(), f)));
                SparkParser.javaCall(forSpark(table.sql(), table), false).ifPresent(f -> problems.add(javaCall(file, path + ".sql", f)));
                List<QuarantineRule> rules = table.quarantine();
                for (int j = 0; j < rules.size(); j++) {
                    String when = rules.get(j).when();
                    String rulePath = path + ".quarantine[" + j + "].when";
                    SparkParser.parseExpression(forSpark(when, table)).ifPresent(f -> problems.add(problem(file, rulePath, when, f)));
                    SparkParser.javaCall(forSpark(when, table), true).ifPresent(f -> problems.add(javaCall(file, rulePath, f)));
                }
            }
        }
        return problems;
    }

    /** {@code sql} as the lakehouse engine gives it to Spark, placeholders bound for parsing; its lines are {@code sql}'s. */
    static String forSpark(String sql, TableSpec table) {
        String input = table.inputTable().map(DatasetRef::qualifiedName).orElse("input");
        return SparkDialect.toSpark(sql).replace("{input}", input).replace("{partition}", PARTITION_LITERAL);
    }

    private static SpecProblem javaCall(String file, String keyPath, String function) {
        return new SpecProblem(file, keyPath, function + "(…)", "Spark's " + function + " calls any Java method (it could read the"
                + " environment, PII keys included); layer SQL may not use it");
    }

    private static SpecProblem problem(String file, String keyPath, String sql, SparkParser.Failure failure) {
        String[] lines = sql.split("\n", -1);
        String value = failure.line() >= 1 && failure.line() <= lines.length ? lines[failure.line() - 1].strip() : sql.strip();
        String where = (failure.line() >= 1 ? " line " + failure.line() : "") + (failure.token().isEmpty() ? "" : " near " + failure.token());
        return new SpecProblem(file, keyPath, value, "Spark SQL cannot parse" + where + ": " + failure.message()
                + "; layer SQL of the lakehouse engine is the shared subset (docs/engines.md)");
    }
}
