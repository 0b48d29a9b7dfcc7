package dev.sluice.engine;

import dev.sluice.config.TableSpec;
import dev.sluice.core.Partition;

/**
 * Where one pipeline's Bronze, Silver and Gold rows live and what builds them: everything the job
 * engine asks of a data plane (ARCHITECTURE.md, "Control plane and data plane"). The warehouse
 * engine ({@code engine.warehouse.WarehouseEngine}: tables in the warehouse database, set-based SQL
 * through jOOQ) and the lakehouse engine ({@code engine.lakehouse.LakehouseEngine}: Apache Iceberg
 * tables built by Spark SQL). Which engine a pipeline uses is decided in one place,
 * {@link LayerEngines#forPipeline}.
 *
 * <p>The seam is split by job: {@link BronzeStore} (Bronze steps), {@link LayerWriter} (Silver/Gold steps, publish,
 * rollback), {@link GateInput} (what gates read), {@link TableReads} ({@code sluice sql}) and {@link Housekeeping} (purge,
 * erase); a caller that needs one job takes that interface. What a run's versions are (written, published, rolled back)
 * is the control plane's ({@code dev.sluice.control.version.PartitionVersions}), never an engine's question.
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
 *       the rows Bronze holds ({@link BronzeStore#committed}), never from a step's execution context.</li>
 *   <li><b>Publish is atomic per partition.</b> Readers see a partition's previous version or its
 *       new one, never a mix, and publishing one partition never changes another.</li>
 *   <li><b>Versions are kept.</b> The spec's {@code versions.keep} newest versions of each
 *       partition stay readable for {@link LayerWriter#rollback}; older ones are pruned when a newer one is
 *       published.</li>
 * </ul>
 *
 * <p>Implementations are thread-safe: partitions of one pipeline run in parallel (a backfill
 * wave) on one instance. Unless a method says otherwise, arguments are non-null; storage failures
 * surface as the storage's unchecked exceptions (the warehouse engine: jOOQ's and Spring's
 * {@code DataAccessException}), which fail the calling step.
 */
public interface LayerEngine extends BronzeStore, LayerWriter, GateInput, TableReads, Housekeeping {
}
