package dev.sluice.config;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A column of a contract or a layer table.
 *
 * @param name lower-case SQL identifier
 * @param type logical type
 * @param nullable whether NULL is allowed
 * @param path for JSON sources, where the value is in each record (a JSON pointer, RFC 6901, e.g.
 *     {@code /properties/mag}); null means {@code /name}
 * @param pii true when the column holds personal data (contracts only); the pipeline spec then
 *     gives it a {@link PiiPolicy}
 * @param allowed the values allowed beyond the type (contracts only), {@link AllowedValues#ANY} when none
 */
public record ColumnSpec(String name, ColumnType type, boolean nullable, @Nullable String path, boolean pii,
        AllowedValues allowed) {
    public ColumnSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(allowed, "allowed");
    }

    /** A column without PII tag or allowed values. */
    public ColumnSpec(String name, ColumnType type, boolean nullable, @Nullable String path) {
        this(name, type, nullable, path, false, AllowedValues.ANY);
    }

    /** A column found at {@code /name} in JSON records. */
    public ColumnSpec(String name, ColumnType type, boolean nullable) {
        this(name, type, nullable, null);
    }

    /** The JSON pointer of this column in a record. */
    public String jsonPath() {
        return path == null ? "/" + name : path;
    }
}
