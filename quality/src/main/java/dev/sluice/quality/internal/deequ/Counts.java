package dev.sluice.quality.internal.deequ;

import dev.sluice.config.CheckSpec;
import dev.sluice.config.Expectation;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Row count and non-null counts of the checked columns, from Deequ's Size and Completeness metrics. Immutable. */
record Counts(long rows, Map<String, Long> nonNull) {

    static final com.amazon.deequ.analyzers.Size SIZE = new com.amazon.deequ.analyzers.Size(Scala.none());

    /** The analyzers to add to the suite, each with the column it counts ("" for the row count). */
    @SuppressWarnings("unchecked")
    static Map<com.amazon.deequ.analyzers.Analyzer<?, com.amazon.deequ.metrics.Metric<?>>, String> analyzers(List<CheckSpec> checks) {
        Map<com.amazon.deequ.analyzers.Analyzer<?, com.amazon.deequ.metrics.Metric<?>>, String> out = new LinkedHashMap<>();
        out.put((com.amazon.deequ.analyzers.Analyzer<?, com.amazon.deequ.metrics.Metric<?>>) (Object) SIZE, "");
        for (CheckSpec c : checks) {
            if (c.column() != null && c.expectation().kind() == Expectation.Kind.MAP) {
                out.put((com.amazon.deequ.analyzers.Analyzer<?, com.amazon.deequ.metrics.Metric<?>>) (Object)
                        new com.amazon.deequ.analyzers.Completeness(c.column(), Scala.none(), Scala.none()), c.column());
            }
        }
        return out;
    }

    static Counts of(Map<com.amazon.deequ.analyzers.Analyzer<?, com.amazon.deequ.metrics.Metric<?>>, String> analyzers,
            Map<Object, Object> metrics) {
        Object size = metrics.get(SIZE);
        long rows = size instanceof Number n ? Math.round(n.doubleValue()) : 0;
        Map<String, Long> nn = new LinkedHashMap<>();
        analyzers.forEach((a, column) -> {
            if (!column.isEmpty()) {
                Object completeness = metrics.get(a);
                nn.put(column, completeness instanceof Number n ? Math.round(n.doubleValue() * rows) : 0L);
            }
        });
        return new Counts(rows, nn);
    }

    long nonNull(String column) {
        return nonNull.getOrDefault(column, 0L);
    }
}
