package dev.sluice.config;

import java.util.Objects;

/**
 * A column of a contract or a layer table.
 *
 * @param name lower-case SQL identifier
 * @param type logical type
 * @param nullable whether NULL is allowed
 * @param path for JSON sources, where the value is in each record (a JSON pointer, RFC 6901, e.g.
 *     {@code /properties/mag}); null means {@code /name}
 */
public record ColumnSpec(String name, ColumnType type, boolean nullable, @org.jspecify.annotations.Nullable String path) {
    public ColumnSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
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
