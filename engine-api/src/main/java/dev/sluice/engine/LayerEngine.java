package dev.sluice.engine;

import dev.sluice.control.version.Rollback;

import dev.sluice.config.TableSpec;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import dev.sluice.core.SluiceException;
import dev.sluice.quality.PartitionBatch;
import dev.sluice.quality.PartitionSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import org.jspecify.annotations.Nullable;

/**
 * Where one pipeline's Bronze, Silver and Gold rows live and what builds them: everything the job
 * engine asks of a data plane (ARCHITECTURE.md, "Control plane and data plane"). The warehouse
 * engine ({@code engine.warehouse.WarehouseEngine}: tables in the warehouse database, set-based SQL
 * through jOOQ) and the lakehouse engine ({@code engine.lakehouse.LakehouseEngine}: Apache Iceberg
 * tables built by Spark SQL). Which engine a pipeline uses is decided in one place,
 * {@link LayerEngines#forPipeline}.
 *
 * <p>An instance serves one pipeline: every {@link TableSpec} given must be one of its tables. The
 * run identity (pipeline, partition, attempt), the landed-file records, quarantine, quality
 * results and lineage stay in the control plane (the warehouse database) whatever the engine.
 *
 * <p>Partitions: the methods that write or read what a job builds take the <em>job's</em>
 * partition (a business date, hour or month; {@link Partition#NONE} for a reference snapshot) and
 * map it to the table's partition ({@link TableSpec#outputPartition}: a monthly rollup's month);
 * the methods about versions and gates take the <em>table's</em> partition, as stored.
 *
 * <p>Transactions: the warehouse engine's statements join the caller's Spring transaction (a
 * step's), so what a step writes or publishes commits with the step and rolls back with it. An
 * engine whose storage commits on its own (Iceberg) commits before the method returns; either way
 * a crash leaves the partition as it was before the call or as it is after it.
 *
 * <p>What every implementation guarantees:
 * <ul>
 *   <li><b>Idempotent re-runs.</b> Creating tables twice changes nothing; writing a partition again
 *       for the same input writes the same rows (same checksum) as a new version; a restarted
 *       Bronze load appends no position twice.</li>
 *   <li><b>Restart position from the data.</b> Where a restarted Bronze load resumes is read from
 *       the rows Bronze holds ({@link #committed}), never from a step's execution context.</li>
 *   <li><b>Publish is atomic per partition.</b> Readers see a partition's previous version or its
 *       new one, never a mix, and publishing one partition never changes another.</li>
 *   <li><b>Versions are kept.</b> The spec's {@code versions.keep} newest versions of each
 *       partition stay readable for {@link #rollback}; older ones are pruned when a newer one is
 *       published.</li>
 * </ul>
 *
 * <p>Implementations are thread-safe: partitions of one pipeline run in parallel (a backfill
 * wave) on one instance. Unless a method says otherwise, arguments are non-null; storage failures
 * surface as the storage's unchecked exceptions (the warehouse engine: jOOQ's and Spring's
 * {@code DataAccessException}), which fail the calling step.
 */
public interface LayerEngine {

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
     * The newest version of a Silver/Gold table partition that {@code run} wrote, published or
     * not.
     *
     * @param partition the table's partition
     * @return null when the run wrote none (e.g. an unchanged reference snapshot)
     */
    @Nullable Integer versionWrittenBy(TableSpec table, Partition partition, RunId run);

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
     * The version readers see of a Silver/Gold table partition.
     *
     * @param partition the table's partition
     * @return empty when none was ever published
     */
    Optional<Integer> publishedVersion(TableSpec table, Partition partition);

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
     * records who, when and why ({@link #lastRollback}).
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

    /**
     * The latest recorded rollback of a Silver/Gold table partition.
     *
     * @param partition the table's partition
     * @return empty when it was never rolled back
     */
    Optional<Rollback> lastRollback(TableSpec table, Partition partition);

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

    /**
     * Redacts an erasure request's raw value in one Bronze table: rows whose column holds the value
     * get the marker (a string column) or NULL, and {@code _parse_errors} holding it is redacted.
     * Afterwards no data the engine keeps for the table holds the value: the warehouse engine
     * updates the rows in the caller's transaction; the lakehouse engine rewrites the data files
     * holding it and expires every earlier snapshot, whose files still hold it (committed before
     * the method returns).
     *
     * @param bronze a Bronze table of the pipeline whose source contract has the column
     * @param partitions receives the partitions whose rows held the value
     * @return rows redacted (0 when the table was never created)
     */
    long redactBronze(TableSpec bronze, BronzeRedaction redaction, java.util.Set<String> partitions);
}
