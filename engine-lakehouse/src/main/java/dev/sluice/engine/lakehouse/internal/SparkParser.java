package dev.sluice.engine.lakehouse.internal;

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

    /** Spark functions that call any static Java method ({@code reflect('java.lang.System', 'getenv', …)}). */
    private static final java.util.Set<String> JAVA_CALLS = java.util.Set.of("reflect", "java_method", "try_reflect");

    /**
     * True when {@code sql} parses as exactly one query: no node of its plan, a CTE's
     * ({@code WITH x AS (…) INSERT …}) and a subquery's included, is a command, write or DDL
     * (Spark's {@code Command} plans, {@code INSERT}), which {@code sluice sql} refuses.
     *
     * @param sql Spark SQL text that {@link #parseQuery} accepts
     */
    public static boolean isQuery(String sql) {
        try {
            return !anyNode(CatalystSqlParser$.MODULE$.parsePlan(sql),
                    n -> n instanceof org.apache.spark.sql.catalyst.plans.logical.Command
                            || n instanceof org.apache.spark.sql.catalyst.plans.logical.InsertIntoStatement);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            return false;
        }
    }

    /**
     * The function of {@code sql} (a statement, or with {@code expression} an expression) that
     * calls arbitrary Java code ({@code reflect}, {@code java_method}, {@code try_reflect}: they
     * would read the environment, PII keys included), if any. Quoted names are found too.
     */
    public static Optional<String> javaCall(String sql, boolean expression) {
        Object root;
        try {
            root = expression ? CatalystSqlParser$.MODULE$.parseExpression(sql) : CatalystSqlParser$.MODULE$.parsePlan(sql);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            return Optional.empty(); // not parsed: reported as such by the parse checks
        }
        String[] found = new String[1];
        anyNode(root, n -> {
            if (n instanceof org.apache.spark.sql.catalyst.analysis.UnresolvedFunction f) {
                String name = f.nameParts().last().toLowerCase(java.util.Locale.ROOT);
                if (JAVA_CALLS.contains(name)) {
                    found[0] = name;
                    return true;
                }
            }
            return false;
        });
        return Optional.ofNullable(found[0]);
    }

    /** True when {@code test} holds for a node of the tree under {@code node}: plans, their expressions, subqueries and CTEs. */
    private static boolean anyNode(Object node, java.util.function.Predicate<Object> test) {
        if (test.test(node)) {
            return true;
        }
        if (node instanceof org.apache.spark.sql.catalyst.plans.QueryPlan<?> plan) {
            for (Object e : scala.collection.JavaConverters.seqAsJavaList(plan.expressions())) {
                if (anyNode(e, test)) {
                    return true;
                }
            }
        }
        if (node instanceof org.apache.spark.sql.catalyst.expressions.SubqueryExpression sub && anyNode(sub.plan(), test)) {
            return true;
        }
        if (node instanceof org.apache.spark.sql.catalyst.trees.TreeNode<?> tree) {
            for (Object c : scala.collection.JavaConverters.seqAsJavaList(tree.children())) {
                if (anyNode(c, test)) {
                    return true;
                }
            }
            for (Object c : scala.collection.JavaConverters.seqAsJavaList(tree.innerChildren())) {
                if (anyNode(c, test)) {
                    return true;
                }
            }
        }
        return false;
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
