package dev.sluice.config;

import java.util.Objects;

/**
 * A column of a contract or a layer table.
 *
 * @param name lower-case SQL identifier
 * @param type logical type
 * @param nullable whether NULL is allowed
 */
public record ColumnSpec(String name, ColumnType type, boolean nullable) {
    public ColumnSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
    }
}
