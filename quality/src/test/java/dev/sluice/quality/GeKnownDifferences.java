package dev.sluice.quality;

import java.util.Map;
import java.util.Optional;

/**
 * Where Sluice deliberately or knowingly answers a Great Expectations case otherwise than GE's
 * Spark backend, by case ({@code <expectation file>: <title>}), each with its reason. The harness
 * reports such a case as a known difference, never as a pass, and fails when a listed case no
 * longer differs (the entry is then stale) or is never met.
 */
final class GeKnownDifferences {

    private static final String NON_NUMBER_BOUND = "both refuse the check, for another reason: Sluice because a mean needs a numeric"
            + " column (x is boolean), GE's Spark backend on the bound 's' (\"invalid datetime format\" from its comparison)";

    private static final Map<String, String> KNOWN = Map.of(
            "expect_column_values_to_not_be_in_set: value_error_spark_cannot_support_values_set_is_null",
            "a NULL in value_set matches no value in Sluice (NULLs follow null_values), as GE's pandas and SQL backends answer"
                    + " positive_test_values_set_is_null (success true); GE's Spark backend refuses the check instead (issue 51 item 7)",
            "expect_column_mean_to_be_between: catch_exceptions___non_number_min_value", NON_NUMBER_BOUND,
            "expect_column_mean_to_be_between: catch_exceptions___non_number_max_value", NON_NUMBER_BOUND);

    private GeKnownDifferences() {
    }

    /** The reason Sluice differs on {@code caseId}, or empty. */
    static Optional<String> reason(String caseId) {
        return Optional.ofNullable(KNOWN.get(caseId));
    }

    /** Every listed case id. */
    static java.util.Set<String> cases() {
        return KNOWN.keySet();
    }
}
