package dev.sluice.config;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The values a contract column allows beyond its type: an inclusive range and/or a set. A Silver
 * table fed by the source quarantines a row whose value is outside them (rules
 * {@code contract_range} and {@code contract_allowed}); NULL is judged by {@code nullable} alone.
 *
 * @param min the inclusive lower bound as a literal of the column's type (e.g. {@code 0},
 *     {@code 2001-01-01}), or null
 * @param max the inclusive upper bound, or null
 * @param values the allowed values (literals of the column's type); empty means any
 */
public record AllowedValues(@Nullable String min, @Nullable String max, List<String> values) {

    /** No restriction. */
    public static final AllowedValues ANY = new AllowedValues(null, null, List.of());

    public AllowedValues {
        values = List.copyOf(values);
    }

    /** True when there is a range bound. */
    public boolean hasRange() {
        return min != null || max != null;
    }
}
