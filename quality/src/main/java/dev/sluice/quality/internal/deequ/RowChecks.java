package dev.sluice.quality.internal.deequ;

import dev.sluice.config.CheckSpec;
import dev.sluice.config.Expectation;
import dev.sluice.quality.InvalidCheckException;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructType;

/**
 * The SQL of the row checks (a column pair, a column list; {@link Expectation.Kind#ROW}), as GE's
 * Spark backend judges them ({@code column_pair_map_metrics} and {@code multicolumn_map_metrics} of
 * great_expectations): a row its {@code ignore_row_if} skips is not judged. Equality compares
 * NULL-safe ({@code <=>}, GE's {@code eqNullSafe}): in a pair's equality and its set of pairs a NULL
 * equals only a NULL, so {@code [6, NULL]} is unexpected; within a record two NULLs are equal. A
 * pair's order ({@code A > B}) with a NULL is NULL, and a judged row whose condition is NULL is not
 * unexpected (GE's Spark filter keeps neither side of it); with {@code or_equal} two NULLs pass. A
 * sum adds the row's non-null values. Stateless.
 */
final class RowChecks {

    private RowChecks() {
    }

    /** The condition of a row the check judges (not skipped by {@code ignore_row_if}). */
    static String judged(CheckSpec spec) {
        List<String> cols = Expectation.rowColumns(spec).stream().map(SparkSql::identifier).toList();
        boolean pair = spec.param("column_A").isPresent();
        String ignore = spec.param("ignore_row_if").map(Object::toString)
                .orElse(pair ? "both_values_are_missing" : "all_values_are_missing");
        List<String> missing = cols.stream().map(c -> c + " IS NULL").toList();
        return switch (ignore) {
            case "both_values_are_missing", "all_values_are_missing" -> "NOT (" + String.join(" AND ", missing) + ")";
            case "either_value_is_missing", "any_value_is_missing" -> "NOT (" + String.join(" OR ", missing) + ")";
            default -> "TRUE";
        };
    }

    /**
     * The condition of a row {@code expect_compound_columns_to_be_unique} judges: one of its listed
     * columns has a value (GE's {@code ignore_row_if: all_values_are_missing}, Deequ's rule).
     */
    static String judgedCompound(CheckSpec spec) {
        List<String> missing = spec.list("column_list").stream().map(c -> SparkSql.identifier(String.valueOf(c)) + " IS NULL").toList();
        return missing.isEmpty() ? "TRUE" : "NOT (" + String.join(" AND ", missing) + ")";
    }

    /**
     * The condition a judged row must meet (NULL counts as met; only the order of a pair can be NULL).
     *
     * @throws InvalidCheckException when a column is missing or a set's value does not fit its column
     */
    static String passing(CheckSpec spec, StructType schema) {
        List<String> names = Expectation.rowColumns(spec);
        if (names.isEmpty() || spec.param("column_A").isPresent() != spec.param("column_B").isPresent()) {
            throw new InvalidCheckException(spec.id() + ": " + spec.expectation().id() + " needs "
                    + (spec.param("column_list").isPresent() ? "column_list" : "column_A and column_B"));
        }
        List<DataType> types = new ArrayList<>();
        names.forEach(n -> types.add(CheckPlan.field(schema, n, spec).dataType()));
        List<String> cols = names.stream().map(SparkSql::identifier).toList();
        String condition = switch (spec.expectation()) {
            case EXPECT_COLUMN_PAIR_VALUES_TO_BE_EQUAL -> cols.get(0) + " <=> " + cols.get(1);
            case EXPECT_COLUMN_PAIR_VALUES_A_TO_BE_GREATER_THAN_B -> cols.get(0) + (spec.flag("or_equal") ? " >= " : " > ") + cols.get(1);
            case EXPECT_COLUMN_PAIR_VALUES_TO_BE_IN_SET -> {
                List<String> any = new ArrayList<>();
                for (Object p : spec.list("value_pairs_set")) {
                    if (!(p instanceof List<?> pair) || pair.size() != 2) {
                        throw new InvalidCheckException(spec.id() + ": value_pairs_set holds pairs [a, b]; " + p + " is not one");
                    }
                    any.add("(" + equal(cols.get(0), pair.get(0), types.get(0)) + " AND " + equal(cols.get(1), pair.get(1), types.get(1)) + ")");
                }
                yield any.isEmpty() ? "FALSE" : String.join(" OR ", any);
            }
            case EXPECT_MULTICOLUMN_SUM_TO_EQUAL -> {
                for (int i = 0; i < names.size(); i++) {
                    if (!(types.get(i) instanceof NumericType)) {
                        throw new InvalidCheckException(spec.id() + ": " + names.get(i) + " is not numeric; a sum needs numbers");
                    }
                }
                Object total = spec.param("sum_total").orElseThrow(() -> new InvalidCheckException(spec.id() + ": sum_total is required"));
                // the row's non-null values summed (GE: a row of 1.0 and NULL sums to 1.0)
                yield "(" + String.join(" + ", cols.stream().map(c -> "COALESCE(" + c + ", 0)").toList()) + ") = "
                        + SparkSql.literal(total, org.apache.spark.sql.types.DataTypes.DoubleType);
            }
            case EXPECT_SELECT_COLUMN_VALUES_TO_BE_UNIQUE_WITHIN_RECORD -> "size(array_distinct(array(" + String.join(", ", cols) + "))) = "
                    + cols.size();
            default -> throw new IllegalStateException("not a row check: " + spec.expectation());
        };
        return "COALESCE(" + condition + ", TRUE)";
    }

    /**
     * NULL-safe, as GE's Spark backend: a NULL in the set matches a NULL, a value never does. Not
     * {@code <=>} with a literal: Spark pushes such a filter down to the JDBC source (the sample of
     * unexpected rows) as {@code (c = v) OR (c IS NULL AND v IS NULL)}, NULL for a NULL {@code c},
     * and the row went missing from the sample while Deequ counted it.
     */
    private static String equal(String column, Object value, DataType type) {
        return value == null ? column + " IS NULL" : "COALESCE(" + column + " = " + SparkSql.literal(value, type) + ", FALSE)";
    }
}
