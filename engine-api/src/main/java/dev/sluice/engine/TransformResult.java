package dev.sluice.engine;

/**
 * What one Silver/Gold partition write did, in rows.
 *
 * @param inputRows rows of the input partition (for Silver: the current Bronze load)
 * @param outputRows rows written to the table's partition
 * @param quarantined input rows sent to {@code sluice.quarantine}
 * @param collapsed duplicates collapsed: Σ(dup_count − 1) when the table has a {@code dup_count}
 *     column, else 0
 * @param version the partition version written (1, 2, …), or the current one when unchanged
 * @param unchanged true when a snapshot's input had not changed and nothing was written
 */
public record TransformResult(long inputRows, long outputRows, long quarantined, long collapsed, int version,
        boolean unchanged) {
}
