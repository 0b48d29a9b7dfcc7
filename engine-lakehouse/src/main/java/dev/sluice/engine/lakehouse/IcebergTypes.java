package dev.sluice.engine.lakehouse;

import dev.sluice.config.ColumnSpec;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * Sluice's column types as Iceberg's (Iceberg table spec, "Primitive Types"), and as Spark SQL's
 * for casting a layer query's result: string, int, long, float, double, boolean, date, timestamp
 * without zone (microseconds), decimal(p,s). Stateless.
 */
final class IcebergTypes {

    private IcebergTypes() {
    }

    static Type of(ColumnSpec c) {
        return switch (c.type()) {
            case STRING -> Types.StringType.get();
            case INT -> Types.IntegerType.get();
            case LONG -> Types.LongType.get();
            case FLOAT -> Types.FloatType.get();
            case DOUBLE -> Types.DoubleType.get();
            case BOOLEAN -> Types.BooleanType.get();
            case DATE -> Types.DateType.get();
            case TIMESTAMP -> Types.TimestampType.withoutZone();
            case DECIMAL -> Types.DecimalType.of(c.decimal().precision(), c.decimal().scale());
        };
    }

    /** The Spark SQL type name of a column, for {@code CAST(… AS type)}. */
    static String spark(ColumnSpec c) {
        return switch (c.type()) {
            case STRING -> "STRING";
            case INT -> "INT";
            case LONG -> "BIGINT";
            case FLOAT -> "FLOAT";
            case DOUBLE -> "DOUBLE";
            case BOOLEAN -> "BOOLEAN";
            case DATE -> "DATE";
            case TIMESTAMP -> "TIMESTAMP_NTZ";
            case DECIMAL -> "DECIMAL(" + c.decimal().precision() + "," + c.decimal().scale() + ")";
        };
    }
}
