package dev.sluice.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The metadata columns of layer tables that quality checks may name, with their types, in table
 * order: what {@code validate} accepts in a check's {@code column} and what a gate reads. Bronze's
 * {@code _ingested_at} (a time-zoned timestamp, which Spark's JDBC reader does not take) is left
 * out; the full DDL lives with the warehouse's layer tables.
 */
public final class MetadataColumns {

    /** Of a Bronze table. */
    public static final Map<String, ColumnType> BRONZE = ordered("_partition", ColumnType.STRING, "_run_id", ColumnType.STRING,
            "_source", ColumnType.STRING, "_source_pos", ColumnType.LONG, "_row_hash", ColumnType.STRING,
            "_parse_errors", ColumnType.STRING);
    /** Of a Silver or Gold table. */
    public static final Map<String, ColumnType> REFINED = ordered("_partition", ColumnType.STRING, "_run_id", ColumnType.STRING,
            "_version", ColumnType.INT);

    private MetadataColumns() {
    }

    private static Map<String, ColumnType> ordered(Object... pairs) {
        Map<String, ColumnType> m = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            m.put((String) pairs[i], (ColumnType) pairs[i + 1]);
        }
        return Collections.unmodifiableMap(m);
    }
}
