package dev.sluice.engine;

import java.util.List;

/**
 * The metadata columns every engine's layer tables carry after their business columns
 * (ARCHITECTURE.md, "Warehouse layout"), in order.
 */
public final class LayerColumns {

    /** Ingest metadata columns of every Bronze table, in order. */
    public static final List<String> BRONZE_METADATA =
            List.of("_partition", "_run_id", "_source", "_source_pos", "_ingested_at", "_row_hash", "_parse_errors");
    /** Metadata columns of every Silver/Gold table, in order. */
    public static final List<String> REFINED_METADATA = List.of("_partition", "_run_id", "_version");

    private LayerColumns() {
    }
}
