package dev.sluice.formats;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;

/**
 * Parquet INT64 timestamps as {@link LocalDateTime}: the raw value counts units since the epoch;
 * a naive timestamp ({@code isAdjustedToUTC = false}) is taken as is, a UTC-adjusted one is
 * shown in UTC (Parquet format, LogicalTypes.md "TIMESTAMP"). Stateless.
 */
public final class ParquetTimestamps {

    private ParquetTimestamps() {
    }

    /** The date-time of a raw INT64 timestamp. */
    public static LocalDateTime toLocalDateTime(long raw, TimestampLogicalTypeAnnotation type) {
        TimeUnit unit = switch (type.getUnit()) {
            case MILLIS -> TimeUnit.MILLISECONDS;
            case MICROS -> TimeUnit.MICROSECONDS;
            case NANOS -> TimeUnit.NANOSECONDS;
        };
        long perSecond = unit.convert(1, TimeUnit.SECONDS);
        long seconds = Math.floorDiv(raw, perSecond);
        int nanos = (int) unit.toNanos(Math.floorMod(raw, perSecond));
        return LocalDateTime.ofEpochSecond(seconds, nanos, ZoneOffset.UTC);
    }
}
