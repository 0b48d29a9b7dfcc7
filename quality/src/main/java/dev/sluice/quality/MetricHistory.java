package dev.sluice.quality;

import java.util.List;

/**
 * The accepted earlier values of an anomaly check's metric for the dataset being judged, oldest
 * first (partitions before the one judged). Implementations read them from wherever results are
 * stored; {@link #NONE} has none.
 */
@FunctionalInterface
public interface MetricHistory {

    /** No history: anomaly checks yield {@link CheckStatus#INSUFFICIENT_HISTORY}. */
    MetricHistory NONE = checkId -> List.of();

    /** The accepted values of check {@code checkId}, oldest first. */
    List<Double> accepted(String checkId);
}
