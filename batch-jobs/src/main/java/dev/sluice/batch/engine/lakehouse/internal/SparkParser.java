package dev.sluice.batch.engine.lakehouse.internal;

import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.catalyst.parser.CatalystSqlParser$;
import org.apache.spark.sql.catalyst.parser.ParseException;

/**
 * Spark SQL's own parser ({@code CatalystSqlParser}, spark-catalyst) on one statement or
 * expression, without a SparkSession: syntax only, no table, column or function is resolved.
 * Parses with Spark's default SQL configuration (ANSI mode off, as Spark 3.5 ships). Stateless and
 * thread-safe.
 */
public final class SparkParser {

    private SparkParser() {
    }

    /**
     * Where and why Spark cannot parse a text.
     *
     * @param line the 1-based line within the parsed text, 0 when Spark names none
     * @param token the offending token as Spark names it (e.g. {@code 'PRECISION'}, {@code end of input})
     * @param message Spark's hint when it gives one (e.g. {@code extra input 'PRECISION'}), else its
     *     one-line message without the error class (e.g. {@code Syntax error at or near end of input})
     */
    public record Failure(int line, String token, String message) {
    }

    /**
     * Parses {@code sql} as a query ({@code parsePlan}).
     *
     * @param sql Spark SQL text, not null
     * @return empty when Spark parses it, else where and why it cannot
     */
    public static Optional<Failure> parseQuery(String sql) {
        try {
            CatalystSqlParser$.MODULE$.parsePlan(sql);
            return Optional.empty();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) { // Scala declares no checked exception: ParseException is one
            return Optional.of(failure(e));
        }
    }

    /**
     * True when {@code sql} parses as exactly one query: not a command, write or DDL (Spark's
     * {@code Command} plans, {@code INSERT}), which {@code sluice sql} refuses.
     *
     * @param sql Spark SQL text that {@link #parseQuery} accepts
     */
    public static boolean isQuery(String sql) {
        try {
            org.apache.spark.sql.catalyst.plans.logical.LogicalPlan plan = CatalystSqlParser$.MODULE$.parsePlan(sql);
            return !(plan instanceof org.apache.spark.sql.catalyst.plans.logical.Command)
                    && !(plan instanceof org.apache.spark.sql.catalyst.plans.logical.InsertIntoStatement);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            return false;
        }
    }

    /**
     * Parses {@code sql} as a boolean or value expression ({@code parseExpression}).
     *
     * @param sql a Spark SQL expression, not null
     * @return empty when Spark parses it, else where and why it cannot
     */
    public static Optional<Failure> parseExpression(String sql) {
        try {
            CatalystSqlParser$.MODULE$.parseExpression(sql);
            return Optional.empty();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            return Optional.of(failure(e));
        }
    }

    private static Failure failure(Exception e) {
        if (!(e instanceof ParseException p)) {
            return new Failure(0, "", String.valueOf(e.getMessage()));
        }
        int line = p.line().isDefined() ? (Integer) p.line().get() : 0;
        Map<String, String> parameters = p.getMessageParameters();
        String token = parameters.getOrDefault("error", "");
        String hint = parameters.getOrDefault("hint", "").replaceFirst("^:\\s*", "").strip();
        String message = hint.isEmpty() ? p.message().replaceFirst("^\\[[A-Z_.]+] ", "").strip() : hint;
        return new Failure(line, token, message.endsWith(".") ? message.substring(0, message.length() - 1) : message);
    }
}
