package dev.sluice.quality.internal.deequ;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.jspecify.annotations.Nullable;

/**
 * How often each non-null value of a column occurs in a partition (Deequ's {@code Histogram} without
 * its 1,000-bin cut and string casts): what the distinct-value and most-common-value checks judge.
 * One grouped count per column; the distinct values come to the driver, so their number, not the
 * partition's rows, bounds the memory (GE's Spark backend collects them alike). Values are compared
 * by {@link #canonical}: numbers by value ({@code 1}, {@code 1.0} and {@code 1.00} are one; a double
 * that is exactly a float as the float's shortest decimal, so a float column's 0.1 is 0.1), dates
 * and timestamps as ISO local date-times, everything else as text. Stateless.
 */
final class ValueCounts {

    private ValueCounts() {
    }

    /** The counts of {@code column}'s non-null values in {@code df}, by value as Spark gives it. */
    static Map<Object, Long> of(Dataset<Row> df, String column) {
        Column c = functions.col(SparkSql.identifier(column));
        Map<Object, Long> out = new LinkedHashMap<>();
        for (Row r : df.where(c.isNotNull()).groupBy(c).count().collectAsList()) {
            out.put(r.get(0), r.getLong(1));
        }
        return out;
    }

    /** The counts of {@code column}'s non-null values per value of {@code partitionColumn} (a string). */
    static Map<String, Map<Object, Long>> byPartition(Dataset<Row> df, String column, String partitionColumn) {
        Column c = functions.col(SparkSql.identifier(column));
        Map<String, Map<Object, Long>> out = new HashMap<>();
        for (Row r : df.where(c.isNotNull()).groupBy(functions.col(partitionColumn), c).count().collectAsList()) {
            out.computeIfAbsent(r.getString(0), k -> new LinkedHashMap<>()).put(r.get(1), r.getLong(2));
        }
        return out;
    }

    /**
     * A value as compared with a check's {@code value_set}: a number by value, a date or timestamp
     * (or a set's text when the column holds them, like {@code 2019-04-01} or {@code 2019-04-01 12:00:00})
     * as its ISO local date-time, anything else as text.
     *
     * @param like a value of the column, telling how to read a set's text; null to take {@code v} as it is
     */
    static String canonical(@Nullable Object v, @Nullable Object like) {
        if (v == null) {
            return "null";
        }
        if (like instanceof Number || v instanceof Number) {
            try {
                // a float the database widened to double (0.1f reads 0.10000000149011612) is compared as the float it was
                String text = v instanceof Double x && x == (double) (float) (double) x && !Double.isInfinite(x)
                        ? Float.toString((float) (double) x) : v instanceof Float f ? Float.toString(f) : v.toString().strip();
                BigDecimal d = new BigDecimal(text);
                return d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString();
            } catch (NumberFormatException e) {
                return v.toString();
            }
        }
        LocalDateTime t = Extremes.time(v);
        if (t != null) {
            return t.toString();
        }
        if (like != null && Extremes.time(like) != null) {
            LocalDateTime parsed = Extremes.parseTime(v.toString());
            return parsed != null ? parsed.toString() : v.toString().strip();
        }
        return v.toString();
    }

    /** The values of {@code counts} in their natural order where they have one, as text otherwise. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static List<Object> sorted(java.util.Collection<Object> values) {
        List<Object> out = new ArrayList<>(values);
        try {
            out.sort((a, b) -> ((Comparable) a).compareTo(b));
        } catch (ClassCastException e) {
            out.sort(java.util.Comparator.comparing(String::valueOf));
        }
        return out;
    }
}
