package dev.sluice.engine;

import dev.sluice.config.ColumnType;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * One erasure request's redaction of a raw value in Bronze ({@link Housekeeping#redactBronze}).
 *
 * @param column the contract column holding the value
 * @param type the column's type
 * @param typed the value parsed as the column's type, or null when it is not of the type (then it
 *     can only be in {@code _parse_errors})
 * @param raw the value as given
 * @param marker what replaces it in a string column ({@code [erased #<id>]}); another type gets NULL
 * @param parseErrors maps a row's {@code _parse_errors} JSON to its redacted form (the same text
 *     when it does not hold the value)
 */
public record BronzeRedaction(String column, ColumnType type, @Nullable Object typed, String raw, String marker,
        UnaryOperator<String> parseErrors) {

    public BronzeRedaction {
        Objects.requireNonNull(column, "column");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(raw, "raw");
        Objects.requireNonNull(marker, "marker");
        Objects.requireNonNull(parseErrors, "parseErrors");
    }
}
