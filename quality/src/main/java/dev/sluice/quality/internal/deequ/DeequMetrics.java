package dev.sluice.quality.internal.deequ;

import com.amazon.deequ.analyzers.CountDistinct;
import com.amazon.deequ.checks.Check;
import com.amazon.deequ.constraints.AnalysisBasedConstraint;
import com.amazon.deequ.constraints.NamedConstraint;
import dev.sluice.config.CheckSpec;
import dev.sluice.config.Metric;
import dev.sluice.quality.InvalidCheckException;
import java.util.List;
import scala.Function1;

/**
 * The Deequ constraint that measures a {@link Metric} of a check ({@code metric}, {@code column},
 * {@code column_list}, {@code other_column}, {@code quantile}), asserting the given bounds or
 * nothing (an anomaly check judges the value against its history). Stateless.
 */
final class DeequMetrics {

    /** Deequ's default relative error of {@code ApproxQuantile}. */
    static final double QUANTILE_ERROR = 0.01;

    private DeequMetrics() {
    }

    /** {@code check} with one constraint measuring {@code metric}, whose assertion always holds. */
    static Check measuring(Check check, CheckSpec spec, Metric metric) {
        return measuring(check, spec, metric, Scala.onDouble(v -> true));
    }

    /** {@code check} with one constraint measuring {@code metric} and asserting {@code any} of its value. */
    static Check measuring(Check check, CheckSpec spec, Metric metric, Function1<Object, Object> any) {
        return switch (metric) {
            case ROW_COUNT -> check.hasSize(any, Scala.none());
            case COMPLETENESS -> check.hasCompleteness(column(spec), any, Scala.none(), Scala.none());
            case MEAN -> check.hasMean(column(spec), any, Scala.none());
            case STDDEV -> check.hasStandardDeviation(column(spec), any, Scala.none());
            case SUM -> check.hasSum(column(spec), any, Scala.none());
            case MINIMUM -> check.hasMin(column(spec), any, Scala.none(), Scala.none());
            case MAXIMUM -> check.hasMax(column(spec), any, Scala.none(), Scala.none());
            case MIN_LENGTH -> check.hasMinLength(column(spec), any, Scala.none(), Scala.none());
            case MAX_LENGTH -> check.hasMaxLength(column(spec), any, Scala.none(), Scala.none());
            case UNIQUENESS -> check.hasUniqueness(Scala.seq(columns(spec)), any, Scala.none());
            case DISTINCTNESS -> check.hasDistinctness(Scala.seq(columns(spec)), any, Scala.none());
            case UNIQUE_VALUE_RATIO -> check.hasUniqueValueRatio(Scala.seq(columns(spec)), any, Scala.none(), Scala.none());
            case COUNT_DISTINCT -> countDistinct(check, columns(spec), any);
            case APPROX_COUNT_DISTINCT -> check.hasApproxCountDistinct(column(spec), any, Scala.none());
            case APPROX_QUANTILE -> check.hasApproxQuantile(column(spec), quantile(spec), any, Scala.none());
            case EXACT_QUANTILE -> check.hasExactQuantile(column(spec), quantile(spec), any, Scala.none());
            case CORRELATION -> check.hasCorrelation(column(spec), spec.param("other_column").map(Object::toString)
                    .orElseThrow(() -> new InvalidCheckException(spec.id() + ": correlation needs other_column")), any, Scala.none());
            case ENTROPY -> check.hasEntropy(column(spec), any, Scala.none());
        };
    }

    /** Deequ's Check has no method for {@code CountDistinct}: its constraint, as Check's own methods build them. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Check countDistinct(Check check, List<String> columns, Function1<Object, Object> assertion) {
        AnalysisBasedConstraint constraint = new AnalysisBasedConstraint(new CountDistinct(Scala.seq(columns)),
                assertion, Scala.none(), Scala.none());
        return check.addConstraint(new NamedConstraint(constraint, "CountDistinct(" + String.join(",", columns) + ")"));
    }

    /** The columns of a metric over one or more columns: {@code column_list}, else {@code column}. */
    static List<String> columns(CheckSpec spec) {
        List<String> list = spec.list("column_list").stream().map(Object::toString).toList();
        if (!list.isEmpty()) {
            return list;
        }
        return List.of(column(spec));
    }

    private static String column(CheckSpec spec) {
        if (spec.column() == null) {
            throw new InvalidCheckException(spec.id() + ": the metric needs a column");
        }
        return spec.column();
    }

    private static double quantile(CheckSpec spec) {
        double q = spec.param("quantile").map(v -> Double.parseDouble(v.toString()))
                .orElseThrow(() -> new InvalidCheckException(spec.id() + ": the metric needs a quantile in [0, 1]"));
        if (q < 0 || q > 1) {
            throw new InvalidCheckException(spec.id() + ": quantile must be within [0, 1], was " + q);
        }
        return q;
    }
}
