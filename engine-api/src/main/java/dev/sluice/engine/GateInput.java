package dev.sluice.engine;

import dev.sluice.config.TableSpec;
import dev.sluice.quality.PartitionBatch;
import dev.sluice.quality.PartitionSource;
import java.util.List;

/**
 * Where a quality gate reads the rows it judges: one partition, or many of one table in one pass (a backfill wave).
 * Part of {@link LayerEngine}; its guarantees, threading and errors are those stated there.
 */
public interface GateInput {

    /**
     * Where a gate reads exactly the rows of {@code target}: the table's declared columns and the
     * metadata columns checks may name ({@link dev.sluice.config.MetadataColumns}), with Bronze's
     * {@code _source_pos} as the row id of unexpected values and the partition's nominal end for
     * freshness. Called outside any transaction; the rows are read when the gate evaluates.
     *
     * @return the warehouse engine's {@link PartitionSource.JdbcQuery}
     */
    PartitionSource gateSource(TableSpec table, GateTarget target);

    /**
     * Where a gate reads the rows of many targets of one table in one pass (a backfill wave), each
     * as {@link #gateSource} would select it.
     *
     * @param targets distinct partitions; for Silver/Gold, each with the version its run wrote
     * @return the warehouse engine's {@link PartitionBatch.JdbcQueries}, members in the order of {@code targets}
     */
    PartitionBatch gateWave(TableSpec table, List<GateTarget> targets);
}
