package dev.sluice.batch.bronze;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.sluice.core.BoundedText;
import org.jspecify.annotations.Nullable;

/**
 * A value of a source row that does not satisfy its contract. The row still goes to Bronze (the
 * column NULL, the raw value kept in {@code _parse_errors}) and Silver quarantines it, so no row is
 * lost and every row is counted once.
 *
 * @param column the column, or null when the row as a whole is at fault (a line too long)
 * @param value the raw text as read (at most {@link #MAX_RAW_CHARS} characters)
 * @param reason why it was refused, e.g. "'2001-02-29' is not a date"
 */
@JsonPropertyOrder({"column", "reason", "value"})
public record FieldError(@Nullable String column, String value, String reason) {

    /** Raw text kept per error, in characters; a longer value is cut and its length stated. */
    public static final int MAX_RAW_CHARS = 65_536;

    /**
     * An error keeping at most {@link #MAX_RAW_CHARS} characters of {@code raw} (one fewer when the
     * cut would split a surrogate pair).
     */
    public static FieldError of(@Nullable String column, String raw, String reason) {
        String kept = BoundedText.prefix(raw, MAX_RAW_CHARS);
        String why = raw.length() <= MAX_RAW_CHARS ? reason : reason + " (raw value cut to " + MAX_RAW_CHARS + " of " + raw.length() + " characters)";
        return new FieldError(column, kept, why);
    }
}
