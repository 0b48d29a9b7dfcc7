package dev.sluice.engine;

import dev.sluice.config.TableSpec;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import dev.sluice.core.SluiceException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import org.jspecify.annotations.Nullable;

/**
 * What the Silver/Gold steps, gates and the rollback command ask of a layer engine: the tables, a partition's next
 * version (alone or for a backfill wave), its publication, the versions kept and a rollback to one of them. Which
 * version was written or published, and the rollback log, are the control plane's ({@code dev.sluice.control.version}).
 * Part of {@link LayerEngine}; its guarantees, threading and errors are those stated there.
 */
public interface LayerWriter {

    /**
     * Creates every missing schema, table, index and view of the pipeline's layers from its spec
     * and contracts. Idempotent; safe while another process creates the same tables.
     */
    void createTables();

    /**
     * Brings the control plane's record of publications in line with what the data plane holds
     * after a process was killed between the two (the lakehouse's rollback commits to Iceberg
     * before it is recorded); {@link #createTables} does it too. Nothing on an engine whose
     * publication is one database transaction. Idempotent.
     */
    default void reconcilePublications() {
    }

    /**
     * {@link #reconcilePublications} for one Silver/Gold table partition only: what a command about
     * that partition ({@code sluice rollback}) needs, without reading every table's history.
     *
     * @param partition the table's partition
     */
    default void reconcilePublication(TableSpec table, Partition partition) {
    }

    /**
     * Where {@code table}'s files live and a version of it, for an engine that keeps tables as
     * files in a table format; empty for an engine whose tables live in the warehouse database
     * (lineage names those {@code schema.table} in the warehouse's namespace). Reads the catalog
     * each time.
     *
     * @param partition the table's partition {@code version} is of
     * @param version a Silver/Gold partition version written (its own snapshot, published or not),
     *     or null for the table's current (published) snapshot
     */
    default Optional<StoredTable> stored(TableSpec table, Partition partition, @Nullable Integer version) {
        return Optional.empty();
    }

    /**
     * Writes the next version of one Silver/Gold partition from the table's SQL over its input,
     * sends the rows the quarantine rules match to {@code sluice.quarantine}, records the version
     * and, for a table without quality checks, publishes it at once (a table with checks is
     * published by its gate, {@link #publish}). A reference snapshot whose input has not changed is
     * not rewritten ({@link TransformResult#unchanged()}).
     *
     * @param table a Silver or Gold table of the pipeline
     * @param partition the job's partition
     * @param run the run writing it, recorded on every row ({@code _run_id})
     * @return rows read, written, quarantined and collapsed, and the version written
     * @throws SluiceException when the written rows break the table's declared key (a NULL in a
     *     key column or a key twice); nothing of the version is kept
     */
    TransformResult write(TableSpec table, Partition partition, RunId run);

    /**
     * Whether a backfill wave writes {@code table} for all its partitions at once
     * ({@link #stageWave}) rather than each partition's job writing its own ({@link #write}). The
     * warehouse engine never does (its SQL is per partition, in each job's transaction); the
     * lakehouse engine does for a partitioned table whose partitions read their own input
     * partition (not a rollup, not a reference snapshot).
     */
    default boolean stagesWaves(TableSpec table) {
        return false;
    }

    /**
     * Writes the next version of {@code table} for every partition of a backfill wave in one job,
     * each partition's rows as {@link #write} would write them, where readers do not see them yet;
     * each partition's job then records its own ({@link StagedWrite#record}). A partition whose rows
     * break the table's key is left out of the write; its {@code record} throws. A partition absent
     * from the answer is written by its own job ({@link #write}), as outside a wave.
     *
     * @param runs the wave's partitions (the jobs' partitions), each with the run writing it
     * @return the staged write of each partition the wave's job wrote
     * @throws UnsupportedOperationException when {@link #stagesWaves} is false for {@code table}
     * @throws RuntimeException when the wave's job fails for all (every partition's step fails with it)
     */
    default Map<Partition, StagedWrite> stageWave(TableSpec table, SortedMap<Partition, RunId> runs) {
        throw new UnsupportedOperationException(table.table() + " is not written by waves on this engine");
    }

    /**
     * Rows of the input of one Silver/Gold partition: for Silver over Bronze, the partition's
     * current load, quarantined rows included; for Gold, the input's published rows.
     *
     * @param partition the job's partition
     * @return ≥ 0
     */
    long inputRows(TableSpec table, Partition partition);

    /**
     * Makes {@code version} the one readers see of a Silver/Gold table partition, atomically, and
     * prunes the versions older than the spec's {@code versions.keep}.
     *
     * @param partition the table's partition
     * @param version a version written by {@link #write}
     * @param run the run that publishes it (recorded with the publication)
     */
    void publish(TableSpec table, Partition partition, int version, RunId run);

    /**
     * The versions of a Silver/Gold table partition still kept, oldest first (1, 2, …).
     *
     * @param partition the table's partition
     * @return empty when none was written
     */
    List<Integer> keptVersions(TableSpec table, Partition partition);

    /**
     * Whether {@code version} of a Silver/Gold table partition was written with data that is gone:
     * pruned by another run's publication while it waited for its own (its gate failed, or was slow,
     * while later versions were written and published). Such a version can never be published: it
     * would publish nothing ({@code StaleVersionException} when tried; {@code GateStep#prepare}
     * builds it again).
     *
     * @param partition the table's partition
     */
    boolean pruned(TableSpec table, Partition partition, int version);

    /**
     * Publishes a kept earlier version of a Silver/Gold table partition again, atomically, and
     * records who, when and why (the control plane's rollback log: {@code PartitionVersions#lastRollback}).
     *
     * @param partition the table's partition
     * @param toVersion the version to restore; null for the newest kept one before the published one
     *     that was published itself (not one whose gate failed)
     * @param requestedBy who asked
     * @param reason why
     * @return the version now published
     * @throws SluiceException when the partition has no published version, none is kept before it,
     *     or {@code toVersion} is not kept (pruned or never written)
     */
    int rollback(TableSpec table, Partition partition, @Nullable Integer toVersion, String requestedBy, String reason);
}
