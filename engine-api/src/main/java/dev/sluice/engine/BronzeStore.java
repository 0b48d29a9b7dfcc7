package dev.sluice.engine;

import dev.sluice.config.TableSpec;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;

/**
 * What a Bronze step asks of a layer engine: the bulk sink of its chunks, where a restarted load resumes (read from the rows
 * Bronze holds), a column {@code drift: evolve} accepted, and the end of a load. Part of {@link LayerEngine}; its
 * guarantees, threading and errors are those stated there.
 */
public interface BronzeStore {

    /**
     * The sink that appends a Bronze step's chunks: the storage's fastest correct bulk path
     * (warehouse engine: PostgreSQL {@code COPY}, else JDBC batches of prepared inserts).
     *
     * @param columns the Bronze table, its column list and the ingest metadata of the step
     * @return a new sink for one step execution (sinks are not thread-safe)
     */
    BronzeSink bronzeSink(BronzeColumns columns);

    /**
     * What Bronze holds of one load: the rows with {@code _partition} = {@code partition},
     * {@code _source} = {@code source} and {@code _run_id} = {@code run}, and the highest
     * {@code _source_pos} among them. A restarted load resumes after it.
     *
     * @param bronzeTable a Bronze table of the pipeline
     * @param partition the Bronze partition ({@link Partition#NONE} for an unpartitioned source)
     * @param source the file as recorded in {@code _source}
     * @return {@link LoadPosition#NONE} when Bronze holds no row of that load
     */
    LoadPosition committed(DatasetRef bronzeTable, Partition partition, String source, RunId run);

    /**
     * Adds a column that {@code drift: evolve} accepted to a Bronze table, nullable, after its
     * existing columns (the warehouse engine: {@code ALTER TABLE … ADD COLUMN IF NOT EXISTS} in the
     * caller's transaction; the lakehouse engine: an Iceberg schema update, committed at once).
     * Idempotent.
     */
    void addBronzeColumn(TableSpec bronze, dev.sluice.config.ColumnSpec column);

    /**
     * Called when a Bronze step completed the load of a partition: the engine may tidy what the
     * load's chunks left. The warehouse engine does nothing; the lakehouse engine rewrites the
     * partition's data files into one when the load left several and expires the table's snapshots
     * older than the current one (each chunk was a commit). Never fails the load: a failure to tidy
     * is logged as a warning and left for the next load.
     *
     * @param partition the Bronze partition ({@link Partition#NONE} for an unpartitioned source)
     */
    default void bronzeLoaded(TableSpec bronze, Partition partition) {
    }
}
