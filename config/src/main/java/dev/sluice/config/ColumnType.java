package dev.sluice.config;

import java.util.Locale;
import java.util.Optional;

/**
 * Logical column types of contracts and layer tables, and their SQL form (the same text on H2 and
 * PostgreSQL).
 */
public enum ColumnType {
    STRING("VARCHAR"),
    INT("INTEGER"),
    LONG("BIGINT"),
    FLOAT("REAL"),
    DOUBLE("DOUBLE PRECISION"),
    BOOLEAN("BOOLEAN"),
    DATE("DATE"),
    /** A timestamp without time zone (a naive local date-time), microsecond precision. */
    TIMESTAMP("TIMESTAMP(6)");

    private final String sql;

    ColumnType(String sql) {
        this.sql = sql;
    }

    /** The SQL type name, e.g. {@code BIGINT}. */
    public String sql() {
        return sql;
    }

    /** The spec spelling, e.g. {@code long}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * True when a value of {@code from} converts to this type without loss: int → long, float →
     * double, and every type to itself. Only such widening type changes are accepted from a
     * landed file (the schema-contract rules of issue #3; decimals are not modelled yet).
     */
    public boolean widensFrom(ColumnType from) {
        return from == this || (this == LONG && from == INT) || (this == DOUBLE && from == FLOAT);
    }

    /** Parses the spec spelling (case-insensitive); empty when unknown. */
    public static Optional<ColumnType> parse(String text) {
        for (ColumnType t : values()) {
            if (t.id().equalsIgnoreCase(text)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }
}
