package dev.sluice.config;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Locale;
import java.util.Optional;

/**
 * Logical column types of contracts and layer tables, and their SQL form (the same text on H2 and
 * PostgreSQL). A {@link #DECIMAL} column also has a precision and scale ({@link DecimalSpec}, held by
 * its {@link ColumnSpec}); its SQL form is {@link DecimalSpec#sql()}.
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
    TIMESTAMP("TIMESTAMP(6)"),
    /** An exact decimal number, {@code decimal(p,s)}: Java {@link java.math.BigDecimal} of scale s. */
    DECIMAL("DECIMAL");

    private final String sql;

    ColumnType(String sql) {
        this.sql = sql;
    }

    /** The SQL type name, e.g. {@code BIGINT} ({@code DECIMAL} without its precision and scale). */
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
     * landed file (the schema-contract rules of issue #3). Decimals of different shapes are judged
     * by {@link SchemaDiff} with their {@link DecimalSpec}s.
     */
    public boolean widensFrom(ColumnType from) {
        return from == this || (this == LONG && from == INT) || (this == DOUBLE && from == FLOAT);
    }

    /**
     * True when {@code literal} is a value of this type as a contract writes it: a whole number for
     * int/long, a decimal number for float/double/decimal, {@code true}/{@code false}, an ISO date
     * ({@code 2001-01-31}) or ISO local date-time ({@code 2001-01-31T06:00}); any text for string.
     */
    public boolean acceptsLiteral(String literal) {
        return parseLiteral(literal).isPresent();
    }

    /**
     * A contract or check literal as the Java value of this type ({@link #acceptsLiteral} says which
     * texts are literals): Integer, Long, Double (float and double), BigDecimal (decimal, not yet
     * fitted to a scale), Boolean, LocalDate, LocalDateTime or String; empty when the text is not a
     * literal of this type.
     */
    public Optional<Object> parseLiteral(String literal) {
        try {
            return Optional.of(switch (this) {
                case INT -> Integer.valueOf(literal);
                case LONG -> Long.valueOf(literal);
                case FLOAT, DOUBLE -> {
                    double d = Double.parseDouble(literal);
                    if (!Double.isFinite(d)) {
                        throw new NumberFormatException("not finite");
                    }
                    yield d;
                }
                case BOOLEAN -> switch (literal) {
                    case "true" -> Boolean.TRUE;
                    case "false" -> Boolean.FALSE;
                    default -> throw new IllegalArgumentException("not a boolean");
                };
                case DATE -> LocalDate.parse(literal);
                case TIMESTAMP -> LocalDateTime.parse(literal);
                case DECIMAL -> ExactNumbers.parse(literal);
                case STRING -> literal;
            });
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** True for the number types: int, long, float, double, decimal. */
    public boolean isNumeric() {
        return this == INT || this == LONG || this == FLOAT || this == DOUBLE || this == DECIMAL;
    }

    /** True for types with an order that a min/max range applies to (numbers, dates, timestamps). */
    public boolean isOrdered() {
        return this != STRING && this != BOOLEAN;
    }

    /** The spec spelling with its indefinite article, for messages: {@code an int}, {@code a date}. */
    public String withArticle() {
        return (this == INT ? "an " : "a ") + id();
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
