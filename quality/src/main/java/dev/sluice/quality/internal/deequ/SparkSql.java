package dev.sluice.quality.internal.deequ;

import java.util.List;
import java.util.stream.Collectors;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.NumericType;

/**
 * Spark SQL text for check predicates: quoted identifiers and literals (Spark's default string
 * literal rules: backslash escapes, https://spark.apache.org/docs/3.5.7/sql-ref-literals.html).
 * Stateless.
 */
final class SparkSql {

    private SparkSql() {
    }

    static String identifier(String name) {
        return "`" + name.replace("`", "``") + "`";
    }

    static String string(String text) {
        return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }

    /**
     * A literal for comparing with a column of {@code type}: numbers stay numbers (a text that
     * reads as a number too, for a numeric column), booleans stay booleans, anything else is a
     * string literal that Spark casts for the comparison (dates, timestamps).
     */
    static String literal(Object value, DataType type) {
        if (value instanceof Number n) {
            return n instanceof Double || n instanceof Float ? Double.toString(n.doubleValue()) : n.toString();
        }
        if (value instanceof Boolean b) {
            return b.toString();
        }
        String text = value.toString();
        if (type instanceof NumericType && isNumber(text)) {
            return text;
        }
        return string(text);
    }

    static String list(List<Object> values, DataType type) {
        return values.stream().map(v -> v == null ? "NULL" : literal(v, type)).collect(Collectors.joining(", "));
    }

    static boolean isNumber(String text) {
        try {
            return Double.isFinite(Double.parseDouble(text.strip()));
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
