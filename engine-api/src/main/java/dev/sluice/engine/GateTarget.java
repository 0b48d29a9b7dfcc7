package dev.sluice.engine;

import dev.sluice.core.Partition;
import org.jspecify.annotations.Nullable;

/**
 * What a quality gate judges of one layer table: a partition of the table and which of its rows.
 *
 * @param partition the table's partition ({@link dev.sluice.config.TableSpec#outputPartition} of
 *     the job's partition; {@link Partition#NONE} for a reference snapshot)
 * @param version for Silver/Gold, the version the run wrote and has not published yet; null for
 *     Bronze (the partition's current load) and for a Silver/Gold partition whose published rows
 *     are judged (the run wrote nothing new)
 */
public record GateTarget(Partition partition, @Nullable Integer version) {
}
