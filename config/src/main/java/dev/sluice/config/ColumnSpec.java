package dev.sluice.config;

import java.util.Objects;
import java.util.Optional;
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
 * @param decimal the precision and scale of a {@link ColumnType#DECIMAL} column; null for every other type
 * @param trim contracts only: leading and trailing white space ({@link String#strip()}) is removed
 *     from a text value before it is read; when false, such white space around a value of any
 *     type but string is a field error (a string keeps it)
 * @param lossy contracts only, float and double: a value the type cannot hold as written (see
 *     {@link ExactNumbers#binaryLoss}) is rounded to the nearest float/double instead of being a
 *     field error
 */
public record ColumnSpec(String name, ColumnType type, boolean nullable, @Nullable String path, boolean pii,
        AllowedValues allowed, @Nullable DecimalSpec decimal, boolean trim, boolean lossy) {
    public ColumnSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(allowed, "allowed");
        if ((type == ColumnType.DECIMAL) != (decimal != null)) {
            throw new IllegalArgumentException("column " + name + ": a decimal column has a precision and scale, another type none");
        }
        if (lossy && type != ColumnType.FLOAT && type != ColumnType.DOUBLE) {
            throw new IllegalArgumentException("column " + name + ": lossy applies to float and double columns");
        }
    }

    /** A column without decimal shape, trimming or rounding. */
    public ColumnSpec(String name, ColumnType type, boolean nullable, @Nullable String path, boolean pii,
            AllowedValues allowed) {
        this(name, type, nullable, path, pii, allowed, null, false, false);
    }

    /** A column without PII tag or allowed values. */
    public ColumnSpec(String name, ColumnType type, boolean nullable, @Nullable String path) {
        this(name, type, nullable, path, false, AllowedValues.ANY);
    }

    /** A column found at {@code /name} in JSON records. */
    public ColumnSpec(String name, ColumnType type, boolean nullable) {
        this(name, type, nullable, null);
    }

    /** A {@code decimal(p,s)} column found at {@code /name} in JSON records. */
    public static ColumnSpec decimal(String name, DecimalSpec decimal, boolean nullable) {
        return new ColumnSpec(name, ColumnType.DECIMAL, nullable, null, false, AllowedValues.ANY, decimal, false, false);
    }

    /**
     * A nullable column of a type as the spec or {@link #typeId()} spells it ({@code long},
     * {@code decimal(12,2)}); empty when the text names no type (a bare {@code decimal} included).
     * Precision is not limited here: a file's decimal may be wider than a contract's may declare.
     */
    public static Optional<ColumnSpec> ofType(String name, String typeText) {
        Optional<DecimalSpec> d = DecimalSpec.parse(typeText);
        if (d.isPresent()) {
            return Optional.of(decimal(name, d.get(), true));
        }
        return ColumnType.parse(typeText).filter(t -> t != ColumnType.DECIMAL).map(t -> new ColumnSpec(name, t, true));
    }

    /** The JSON pointer of this column in a record. */
    public String jsonPath() {
        return path == null ? "/" + name : path;
    }

    /** The type as the spec spells it: {@code long}, {@code decimal(12,2)}. */
    public String typeId() {
        return decimal == null ? type.id() : decimal.id();
    }

    /** The SQL type: {@code BIGINT}, {@code DECIMAL(12,2)}. */
    public String sqlType() {
        return decimal == null ? type.sql() : decimal.sql();
    }
}
