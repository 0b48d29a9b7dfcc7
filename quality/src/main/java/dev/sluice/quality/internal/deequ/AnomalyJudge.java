package dev.sluice.quality.internal.deequ;

import com.amazon.deequ.anomalydetection.AnomalyDetectionStrategy;
import com.amazon.deequ.anomalydetection.OnlineNormalStrategy;
import com.amazon.deequ.anomalydetection.RelativeRateOfChangeStrategy;
import dev.sluice.config.CheckSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Judges a metric against its accepted history with a Deequ anomaly strategy (Deequ's
 * {@code anomalydetection} package; the strategies are those of Schelter et al., "Automating
 * Large-Scale Data Quality Verification", VLDB 2018): {@code relative_rate_of_change} (default:
 * the value divided by the previous accepted one must stay within
 * [{@code max_rate_decrease}, {@code max_rate_increase}], defaults 0.5 and 2.0) or
 * {@code online_normal} (within {@code stddevs}, default 3, standard deviations of the history's
 * running mean). Fewer than {@code min_history} (default 5) accepted values: no judgement.
 * Stateless.
 */
final class AnomalyJudge {

    static final int DEFAULT_MIN_HISTORY = 5;

    private AnomalyJudge() {
    }

    static int minHistory(CheckSpec spec) {
        return spec.param("min_history").map(v -> (int) Double.parseDouble(v.toString())).orElse(DEFAULT_MIN_HISTORY);
    }

    /** Why {@code value} is anomalous against {@code history}, or empty when it is not. */
    static Optional<String> anomaly(CheckSpec spec, List<Double> history, double value) {
        List<Object> series = new ArrayList<>(history);
        series.add(value);
        AnomalyDetectionStrategy strategy = strategy(spec);
        var found = strategy.detect(Scala.vector(series), new scala.Tuple2<>(history.size(), history.size() + 1));
        if (found.isEmpty()) {
            return Optional.empty();
        }
        var anomaly = found.head()._2();
        return Optional.of(anomaly.detail().isDefined() ? anomaly.detail().get() : "anomalous");
    }

    /** What was measured against what, in words: e.g. "row_count 6 is 0.04 % of the previous accepted 15626 (allowed 50 %–200 %)". */
    static String explain(CheckSpec spec, List<Double> history, double value) {
        String metric = spec.param("metric").map(Object::toString).orElse("row_count") + (spec.column() == null ? "" : " of " + spec.column());
        String v = format(value);
        if ("online_normal".equals(spec.param("strategy").map(Object::toString).orElse(""))) {
            double mean = history.stream().mapToDouble(Double::doubleValue).average().orElse(0);
            double sd = Math.sqrt(history.stream().mapToDouble(x -> (x - mean) * (x - mean)).sum() / Math.max(1, history.size()));
            return metric + " " + v + " against the mean " + format(mean) + " ± " + number(spec, "stddevs", 3) + " × " + format(sd)
                    + " of " + history.size() + " accepted partitions";
        }
        double previous = history.get(history.size() - 1);
        String ratio = previous == 0 ? "n/a" : String.format(Locale.ROOT, "%.2f %%", 100 * value / previous);
        return metric + " " + v + " is " + ratio + " of the previous accepted " + format(previous) + " (allowed "
                + Math.round(100 * number(spec, "max_rate_decrease", 0.5)) + " %–" + Math.round(100 * number(spec, "max_rate_increase", 2.0))
                + " %)";
    }

    private static String format(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : String.format(Locale.ROOT, "%.4g", v);
    }

    static String describe(CheckSpec spec) {
        String metric = spec.param("metric").map(Object::toString).orElse("row_count")
                + (spec.column() == null ? "" : " of " + spec.column());
        if ("online_normal".equals(spec.param("strategy").map(Object::toString).orElse(""))) {
            return metric + " within " + number(spec, "stddevs", 3) + " stddevs of its history (≥ " + minHistory(spec) + " partitions)";
        }
        return metric + " changes by a factor in [" + number(spec, "max_rate_decrease", 0.5) + ", "
                + number(spec, "max_rate_increase", 2.0) + "] from the previous partition (≥ " + minHistory(spec) + " partitions of history)";
    }

    private static AnomalyDetectionStrategy strategy(CheckSpec spec) {
        if ("online_normal".equals(spec.param("strategy").map(Object::toString).orElse(""))) {
            double k = number(spec, "stddevs", 3);
            return new OnlineNormalStrategy(Scala.some(k), Scala.some(k), 0.0, true);
        }
        return new RelativeRateOfChangeStrategy(Scala.some(number(spec, "max_rate_decrease", 0.5)),
                Scala.some(number(spec, "max_rate_increase", 2.0)), 1);
    }

    private static double number(CheckSpec spec, String key, double dflt) {
        return spec.param(key).map(v -> Double.parseDouble(v.toString())).orElse(dflt);
    }
}
