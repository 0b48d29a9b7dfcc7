package dev.sluice.batch.bronze;

import dev.sluice.engine.LoadPosition;

import dev.sluice.core.DatasetRef;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;

/**
 * Reads where a restarted Bronze load resumes from the data the layer engine holds
 * ({@link dev.sluice.engine.LayerEngine#committed}). Implementations are thread-safe.
 */
@FunctionalInterface
public interface LoadPositions {

    /**
     * What Bronze holds of the load of {@code source} into {@code partition} of {@code bronzeTable}
     * by {@code run}.
     *
     * @param source the file as recorded in {@code _source}
     * @return {@link LoadPosition#NONE} when it holds nothing of it
     */
    LoadPosition committed(DatasetRef bronzeTable, Partition partition, String source, RunId run);
}
