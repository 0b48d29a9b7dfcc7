package dev.sluice.quality.internal.deequ;

import dev.sluice.config.Expectation;
import dev.sluice.quality.CheckResult;
import java.util.List;
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

    static void sample(Dataset<Row> df, CheckPlan plan, @Nullable String rowId, List<Object> values, List<Long> ids) {
        String col = plan.spec().column();
        String q = SparkSql.identifier(col);
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
        for (Row r : bad.limit(CheckResult.SAMPLE).collectAsList()) {
            values.add(r.get(r.fieldIndex(columnName(r, col))));
            if (rowId != null) {
                ids.add(((Number) r.get(r.fieldIndex(columnName(r, rowId)))).longValue());
            }
        }
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
