package dev.sluice.batch.bronze;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * {@code _parse_errors}: a row's {@link FieldError}s as a JSON array of
 * {@code {"column", "value", "reason"}}, or NULL for a good row. Thread-safe.
 */
public final class ParseErrors {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ParseErrors() {
    }

    /** The JSON text, or null when there are no errors. */
    public static @Nullable String toJson(List<FieldError> errors) {
        if (errors.isEmpty()) {
            return null;
        }
        try {
            return JSON.writeValueAsString(errors);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
