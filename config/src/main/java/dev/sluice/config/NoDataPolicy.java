package dev.sluice.config;

import java.util.Locale;
import java.util.Optional;

/**
 * What a check's {@code NO_DATA} outcome does: {@code no_data:} of a check in the spec. A check has
 * no data when there is nothing to judge: a column-value check on a column whose values are all
 * NULL (or a table with no rows), an aggregate or metric over no values (Deequ's "empty state"), a
 * standard deviation of fewer than two values, an anomaly check whose metric has no value.
 */
public enum NoDataPolicy {
    /** With severity {@code error}, the gate fails as for a failed check; a {@code warn} check never blocks. */
    BLOCK,
    /** Recorded as {@code NO_DATA}; the partition goes on. */
    ALLOW;

    /** The spec's word ({@code block}, {@code allow}). */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The policy named {@code text} (case-insensitive), or empty. */
    public static Optional<NoDataPolicy> parse(String text) {
        for (NoDataPolicy p : values()) {
            if (p.id().equalsIgnoreCase(text.trim())) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }
}
