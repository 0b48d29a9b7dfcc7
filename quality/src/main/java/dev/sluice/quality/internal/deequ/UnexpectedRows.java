package dev.sluice.quality.internal.deequ;

import dev.sluice.config.Expectation;
import dev.sluice.quality.CheckResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
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
     * GE's unexpected rows of {@code expect_compound_columns_to_be_unique}: every row whose
     * combination of {@code columns} occurs more than once, rows whose columns are all NULL ignored
     * (GE's {@code ignore_row_if: all_values_are_missing}, Deequ's rule too; NULLs compare equal).
     * Fills up to {@value CheckResult#SAMPLE} combinations (column → value, in the list's order) and
     * their row ids; returns how many rows are unexpected.
     */
    static long compound(Dataset<Row> df, List<String> columns, @Nullable String rowId, List<Object> values, List<@Nullable Long> ids) {
        Column any = functions.lit(false);
        Column[] group = new Column[columns.size()];
        Column same = functions.lit(true);
        for (int i = 0; i < columns.size(); i++) {
            Column c = functions.col(SparkSql.identifier(columns.get(i)));
            any = any.or(c.isNotNull());
            group[i] = c.as("_dup_" + i);
        }
        Dataset<Row> judged = df.where(any);
        Dataset<Row> dupes = judged.groupBy(group).count().filter("count > 1").drop("count");
        for (int i = 0; i < columns.size(); i++) {
            same = same.and(functions.col(SparkSql.identifier(columns.get(i))).eqNullSafe(functions.col("_dup_" + i)));
        }
        Dataset<Row> bad = judged.join(dupes, same, "left_semi");
        if (rowId != null) {
            bad = bad.orderBy(functions.col(SparkSql.identifier(rowId)));
        }
        long count = bad.count();
        for (Row r : bad.limit(CheckResult.SAMPLE).collectAsList()) {
            Map<String, Object> combination = new LinkedHashMap<>();
            columns.forEach(c -> combination.put(c, r.get(r.fieldIndex(columnName(r, c)))));
            values.add(combination);
            if (rowId != null) {
                ids.add(rowId(r, rowId));
            }
        }
        return count;
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
