package dev.sluice.quality.internal.deequ;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.jspecify.annotations.Nullable;
import scala.collection.JavaConverters;

/**
 * The aggregates Sluice computes beside Deequ's analyzers, in the same pass over a partition (or,
 * grouped, over many): the least and greatest values of {@link Extremes}, and the quantiles of
 * {@code expect_column_quantile_values_to_be_between}. Keyed by text so that checks needing the
 * same aggregate share it: {@code min:<column>}, {@code max:<column>},
 * {@code quantiles:<accuracy>:<q1,q2,…>:<column>}. Stateless.
 */
final class OwnAggregates {

    private static final String QUANTILES = "quantiles:";

    private OwnAggregates() {
    }

    /**
     * The key of a column's quantiles as Spark's {@code approxQuantile} computes them (GE's Spark
     * backend): the values cast to double, NULLs ignored, {@code percentile_approx} with accuracy
     * {@code Integer.MAX_VALUE} for a relative error of 0 (exact up to 2^31 values), else ⌈1 / error⌉.
     */
    static String quantilesKey(String column, List<Double> quantiles, double relativeError) {
        int accuracy = relativeError == 0 ? Integer.MAX_VALUE : (int) Math.ceil(1.0 / relativeError);
        StringBuilder qs = new StringBuilder();
        for (double q : quantiles) {
            qs.append(qs.isEmpty() ? "" : ",").append(q);
        }
        return QUANTILES + accuracy + ":" + qs + ":" + column;
    }

    /** The Spark aggregate of a key. */
    static Column aggregate(String key) {
        if (!key.startsWith(QUANTILES)) {
            return Extremes.aggregate(key);
        }
        String[] parts = key.split(":", 4);
        int accuracy = Integer.parseInt(parts[1]);
        List<Column> qs = new ArrayList<>();
        for (String q : parts[2].split(",")) {
            qs.add(functions.lit(Double.parseDouble(q)));
        }
        Column values = functions.col(SparkSql.identifier(parts[3])).cast("double");
        return functions.percentile_approx(values, functions.array(qs.toArray(new Column[0])), functions.lit(accuracy));
    }

    /** The aggregate's value in {@code row} at {@code i}: a Java list for the quantiles (null over no values), else as Spark gives it. */
    static @Nullable Object value(Row row, int i) {
        if (row.isNullAt(i)) {
            return null;
        }
        Object v = row.get(i);
        if (v instanceof scala.collection.Seq<?> seq) {
            return new ArrayList<Object>(JavaConverters.seqAsJavaListConverter(seq).asJava());
        }
        return v;
    }
}
