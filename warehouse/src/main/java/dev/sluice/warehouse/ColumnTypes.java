package dev.sluice.warehouse;

import dev.sluice.config.ColumnSpec;
import org.jooq.DataType;
import org.jooq.impl.SQLDataType;

/**
 * The one mapping of a contract column's type to its SQL type, for every table Sluice creates
 * from a spec (layer tables, the hot path's sink and window tables): string → {@code VARCHAR}
 * (unbounded: H2's longest, PostgreSQL's {@code varchar} without a length), int → {@code INTEGER},
 * long → {@code BIGINT}, double → {@code DOUBLE}, float → {@code REAL}, boolean → {@code BOOLEAN},
 * date → {@code DATE}, timestamp → {@code TIMESTAMP(6)} (microseconds, no time zone),
 * decimal(p,s) → {@code DECIMAL(p,s)}. A bound on text lives in the rule that refuses a longer
 * value (the hot path's decoder), never in the column, so that no insert fails on length.
 * Stateless and thread-safe.
 */
public final class ColumnTypes {

    private ColumnTypes() {
    }

    /** The SQL type of {@code column}. */
    public static DataType<?> of(ColumnSpec column) {
        return switch (column.type()) {
            case STRING -> SQLDataType.VARCHAR;
            case INT -> SQLDataType.INTEGER;
            case LONG -> SQLDataType.BIGINT;
            case DOUBLE -> SQLDataType.DOUBLE;
            case FLOAT -> SQLDataType.REAL;
            case BOOLEAN -> SQLDataType.BOOLEAN;
            case DATE -> SQLDataType.LOCALDATE;
            case TIMESTAMP -> SQLDataType.LOCALDATETIME(6);
            case DECIMAL -> SQLDataType.DECIMAL(column.decimal().precision(), column.decimal().scale());
        };
    }
}
