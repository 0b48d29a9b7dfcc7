package dev.sluice.quality.internal.deequ;

import com.amazon.deequ.analyzers.Analyzer;
import com.amazon.deequ.analyzers.Completeness;
import com.amazon.deequ.analyzers.Size;
import com.amazon.deequ.metrics.Metric;
import dev.sluice.config.CheckSpec;
import dev.sluice.config.Expectation;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Row count and non-null counts of the checked columns, from Deequ's Size and Completeness metrics. Immutable. */
record Counts(long rows, Map<String, Long> nonNull) {

    static final Size SIZE = new Size(Scala.none());

    /** The analyzers to add to the suite, each with the column it counts ("" for the row count). */
    @SuppressWarnings("unchecked")
    static Map<Analyzer<?, Metric<?>>, String> analyzers(List<CheckSpec> checks) {
        Map<Analyzer<?, Metric<?>>, String> out = new LinkedHashMap<>();
        out.put((Analyzer<?, Metric<?>>) (Object) SIZE, "");
        for (CheckSpec c : checks) {
            if (c.expectation().kind() == Expectation.Kind.ROW) {
                // the rows a row check judges: those its ignore_row_if keeps
                out.put((Analyzer<?, Metric<?>>) (Object) new Size(Scala.some(RowChecks.judged(c))), rowsKey(c));
            }
            if (c.expectation() == Expectation.EXPECT_COMPOUND_COLUMNS_TO_BE_UNIQUE) {
                // the compound uniqueness leaves out the rows whose listed columns are all NULL
                out.put((Analyzer<?, Metric<?>>) (Object) new Size(Scala.some(RowChecks.judgedCompound(c))), rowsKey(c));
            }
            if (c.column() != null && (c.expectation().kind() == Expectation.Kind.MAP
                    || c.expectation() == Expectation.EXPECT_COLUMN_STDEV_TO_BE_BETWEEN)) {
                out.put((Analyzer<?, Metric<?>>) (Object)
                        new Completeness(c.column(), Scala.none(), Scala.none()), c.column());
            }
        }
        return out;
    }

    static Counts of(Map<Analyzer<?, Metric<?>>, String> analyzers,
            Map<Object, Object> metrics) {
        Object size = metrics.get(SIZE);
        long rows = size instanceof Number n ? Math.round(n.doubleValue()) : 0;
        Map<String, Long> nn = new LinkedHashMap<>();
        analyzers.forEach((a, column) -> {
            if (column.startsWith(ROWS)) {
                Object judged = metrics.get(a);
                nn.put(column, judged instanceof Number n ? Math.round(n.doubleValue()) : 0L);
            } else if (!column.isEmpty()) {
                Object completeness = metrics.get(a);
                nn.put(column, completeness instanceof Number n ? Math.round(n.doubleValue() * rows) : 0L);
            }
        });
        return new Counts(rows, nn);
    }

    private static final String ROWS = "rows judged by ";

    /** The key of the rows a row check (or the compound uniqueness) judges, for {@link #nonNull}. */
    static String rowsKey(CheckSpec c) {
        return ROWS + c.id();
    }

    /** The non-null values of a column, or for {@link #rowsKey} the rows a row check judges. */
    long nonNull(String column) {
        return nonNull.getOrDefault(column, 0L);
    }
}
