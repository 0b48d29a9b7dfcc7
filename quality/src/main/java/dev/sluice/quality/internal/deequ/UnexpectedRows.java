package dev.sluice.quality.internal.deequ;

import dev.sluice.config.Expectation;
import dev.sluice.quality.CheckResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.expressions.WindowSpec;
import org.apache.spark.sql.functions;
import org.jspecify.annotations.Nullable;

/**
 * Up to {@value CheckResult#SAMPLE} unexpected values of a map check (and their row ids), in row-id
 * order when there is a row id. For uniqueness: every occurrence of a value that occurs more than
 * once (GE's unexpected list). Stateless.
 */
final class UnexpectedRows {

    private UnexpectedRows() {
    }

    static void sample(Dataset<Row> df, CheckPlan plan, @Nullable String rowId, List<Object> values, List<@Nullable Long> ids) {
        String col = plan.spec().column();
        String q = col == null ? null : SparkSql.identifier(col);
        Dataset<Row> bad;
        if (plan.spec().expectation() == Expectation.EXPECT_COLUMN_VALUES_TO_BE_UNIQUE) {
            Dataset<Row> dupes = df.filter(q + " IS NOT NULL").groupBy(functions.col(q).as("_dup_value"))
                    .count().filter("count > 1").select("_dup_value");
            bad = df.join(dupes, functions.col(q).equalTo(functions.col("_dup_value")), "left_semi");
        } else {
            bad = df.filter(plan.unexpected());
        }
        if (rowId != null) {
            bad = bad.orderBy(functions.col(SparkSql.identifier(rowId)));
        }
        List<String> rowColumns = Expectation.rowColumns(plan.spec());
        boolean pair = plan.spec().param("column_A").isPresent();
        for (Row r : bad.limit(CheckResult.SAMPLE).collectAsList()) {
            if (rowColumns.isEmpty()) {
                values.add(r.get(r.fieldIndex(columnName(r, col))));
            } else if (pair) {
                // GE: a pair's unexpected value is [a, b]
                values.add(java.util.Arrays.asList(r.get(r.fieldIndex(columnName(r, rowColumns.get(0)))),
                        r.get(r.fieldIndex(columnName(r, rowColumns.get(1))))));
            } else {
                // GE: a list's unexpected value is {column: value}
                Map<String, Object> m = new LinkedHashMap<>();
                rowColumns.forEach(c -> m.put(c, r.get(r.fieldIndex(columnName(r, c)))));
                values.add(m);
            }
            if (rowId != null) {
                ids.add(rowId(r, rowId));
            }
        }
    }

    /**
     * The unexpected rows of {@code expect_compound_columns_to_be_unique} in one partition: how many
     * (rows), and up to {@value CheckResult#SAMPLE} of their combinations (column → value, in the
     * list's order) with their row ids (null ids when the table has no row id column).
     */
    record Duplicates(long rows, List<Object> values, List<@Nullable Long> ids) {

        /** No unexpected rows. */
        static final Duplicates NONE = new Duplicates(0, List.of(), List.of());
    }

    /**
     * GE's unexpected rows of {@code expect_compound_columns_to_be_unique}: every row whose
     * combination of {@code columns} occurs more than once, rows whose columns are all NULL ignored
     * (GE's {@code ignore_row_if: all_values_are_missing}, Deequ's rule too; NULLs compare equal);
     * the sample in {@link #sampleOrder} (row id, then the combination), so that it is the same
     * whether the partition is judged alone or in a wave ({@link #compoundByPartition}).
     */
    static Duplicates compound(Dataset<Row> df, List<String> columns, @Nullable String rowId) {
        Dataset<Row> bad = duplicated(df, List.of(), columns).orderBy(sampleOrder(columns, rowId));
        long count = bad.count();
        List<Object> values = new ArrayList<>();
        List<@Nullable Long> ids = new ArrayList<>();
        for (Row r : bad.limit(CheckResult.SAMPLE).collectAsList()) {
            values.add(combination(r, columns));
            ids.add(rowId == null ? null : rowId(r, rowId));
        }
        return new Duplicates(count, values, rowId == null ? List.of() : ids);
    }

    /**
     * {@link #compound} for every partition of {@code df} at once, the partition key in the column
     * {@code partitionColumn}: duplicates are counted within each partition, as if each were judged
     * alone, in one Spark job for the counts and one for the samples (each partition's first
     * {@value CheckResult#SAMPLE} unexpected rows in {@link #sampleOrder}). A wave's gate used to
     * run both jobs once per partition with duplicates, each over the whole wave's rows: for a wave
     * of 64 days of flights, every day with some, 128 jobs of 0.3–0.7 s (Spark's event log,
     * 2026-12-04), in a Bronze gate of 49.5 s that now takes 22.2 s. The partition key is compared
     * as text.
     *
     * @return by partition key, the partitions that have unexpected rows
     */
    static Map<String, Duplicates> compoundByPartition(Dataset<Row> df, String partitionColumn, List<String> columns, @Nullable String rowId) {
        String key = helper(df, "partition_key");
        String rank = helper(df, "dup_rank");
        Column partition = functions.col(key);
        Dataset<Row> keyed = df.withColumn(key, functions.col(SparkSql.identifier(partitionColumn)).cast("string"));
        Dataset<Row> bad = duplicated(keyed, List.of(key), columns).persist(org.apache.spark.storage.StorageLevel.MEMORY_AND_DISK());
        try {
            Map<String, Duplicates> out = new HashMap<>();
            Map<String, Long> counts = new HashMap<>();
            for (Row r : bad.groupBy(partition).count().collectAsList()) {
                counts.put(r.getString(0), r.getLong(1));
            }
            if (counts.isEmpty()) {
                return out;
            }
            WindowSpec w = Window.partitionBy(partition).orderBy(sampleOrder(columns, rowId));
            List<Row> sample = bad.withColumn(rank, functions.row_number().over(w)).filter(functions.col(rank).leq(CheckResult.SAMPLE))
                    .orderBy(partition, functions.col(rank)).collectAsList();
            Map<String, List<Object>> values = new HashMap<>();
            Map<String, List<@Nullable Long>> ids = new HashMap<>();
            for (Row r : sample) {
                String partitionKey = r.getString(r.fieldIndex(key));
                values.computeIfAbsent(partitionKey, k -> new ArrayList<>()).add(combination(r, columns));
                ids.computeIfAbsent(partitionKey, k -> new ArrayList<>()).add(rowId == null ? null : rowId(r, rowId));
            }
            counts.forEach((k, n) -> out.put(k, new Duplicates(n, values.getOrDefault(k, List.of()),
                    rowId == null ? List.of() : ids.getOrDefault(k, List.of()))));
            return out;
        } finally {
            bad.unpersist();
        }
    }

    /**
     * The order of a sample of unexpected rows: by row id when there is one, then by the checked
     * columns (a Bronze row id is a position in its file, so a partition of several files has ties).
     */
    private static Column[] sampleOrder(List<String> columns, @Nullable String rowId) {
        List<Column> order = new ArrayList<>();
        if (rowId != null) {
            order.add(functions.col(SparkSql.identifier(rowId)));
        }
        columns.forEach(c -> order.add(functions.col(SparkSql.identifier(c))));
        return order.toArray(Column[]::new);
    }

    /** A helper column's name for {@code what} that none of {@code df}'s columns has (compared ignoring case, as Spark does). */
    private static String helper(Dataset<Row> df, String what) {
        java.util.Set<String> taken = new java.util.HashSet<>();
        for (String c : df.columns()) {
            taken.add(c.toLowerCase(java.util.Locale.ROOT));
        }
        String name = "__sluice_" + what;
        for (int n = 2; taken.contains(name); n++) {
            name = "__sluice_" + what + "_" + n;
        }
        return name;
    }

    /** The rows of {@code df} whose {@code columns} (not all NULL) occur more than once among the rows of equal {@code within} columns. */
    private static Dataset<Row> duplicated(Dataset<Row> df, List<String> within, List<String> columns) {
        Column any = functions.lit(false);
        List<Column> group = new ArrayList<>();
        Column same = functions.lit(true);
        String prefix = helper(df, "dup");
        for (int i = 0; i < within.size(); i++) {
            group.add(functions.col(SparkSql.identifier(within.get(i))).as(prefix + "_in_" + i));
            same = same.and(functions.col(SparkSql.identifier(within.get(i))).equalTo(functions.col(prefix + "_in_" + i)));
        }
        for (int i = 0; i < columns.size(); i++) {
            Column c = functions.col(SparkSql.identifier(columns.get(i)));
            any = any.or(c.isNotNull());
            group.add(c.as(prefix + "_" + i));
            same = same.and(c.eqNullSafe(functions.col(prefix + "_" + i)));
        }
        Dataset<Row> judged = df.where(any);
        Dataset<Row> dupes = judged.groupBy(group.toArray(Column[]::new)).count().filter("count > 1").drop("count");
        return judged.join(dupes, same, "left_semi");
    }

    private static Map<String, Object> combination(Row r, List<String> columns) {
        Map<String, Object> combination = new LinkedHashMap<>();
        columns.forEach(c -> combination.put(c, r.get(r.fieldIndex(columnName(r, c)))));
        return combination;
    }

    private static @Nullable Long rowId(Row r, String rowId) {
        Object id = r.get(r.fieldIndex(columnName(r, rowId)));
        return id == null ? null : ((Number) id).longValue();
    }

    private static String columnName(Row r, String name) {
        for (String f : r.schema().fieldNames()) {
            if (f.equalsIgnoreCase(name)) {
                return f;
            }
        }
        return name;
    }
}
