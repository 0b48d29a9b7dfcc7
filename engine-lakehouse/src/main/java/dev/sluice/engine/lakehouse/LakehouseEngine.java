package dev.sluice.engine.lakehouse;

import dev.sluice.engine.BronzeColumns;
import dev.sluice.engine.BronzeSink;
import dev.sluice.engine.LoadPosition;
import dev.sluice.engine.BronzeRedaction;
import dev.sluice.engine.GateTarget;
import dev.sluice.engine.LayerEngine;
import dev.sluice.engine.QueryResult;
import java.time.Instant;
import java.util.LinkedHashMap;
import org.jooq.DSLContext;
import dev.sluice.engine.StoredTable;
import dev.sluice.engine.TransformResult;
import dev.sluice.control.version.PartitionVersions;
import dev.sluice.config.ColumnSpec;
import dev.sluice.config.MetadataColumns;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Layer;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import dev.sluice.core.SluiceException;
import dev.sluice.quality.PartitionBatch;
import dev.sluice.quality.PartitionSource;
import dev.sluice.spark.LakehouseCatalog;
import dev.sluice.spark.SparkSessions;
import dev.sluice.warehouse.Warehouse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.Optional;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.spark.sql.SparkSession;
import org.jspecify.annotations.Nullable;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The lakehouse engine: a pipeline's layers as Apache Iceberg tables (format v2, Parquet) in the
 * Iceberg catalog of the warehouse database ({@link LakehouseCatalog}), data files under the spec's
 * {@code lakehouse.location}. Bronze is appended with Iceberg's Java data API
 * ({@link IcebergBronzeSink}), Silver and Gold are built by Spark SQL in the JVM's one SparkSession
 * ({@link LakehouseTransform}). Runs, landed files, quarantine, versions, quality results and
 * lineage stay in the warehouse database (the control plane), as with the warehouse engine.
 *
 * <p>A Silver/Gold version is staged on a branch of its own, judged there by its gate and published
 * by one Iceberg commit replacing that partition's files on main; kept versions are branches,
 * rolled back to the same way ({@link PartitionBranches}). PII policies apply on the way into
 * Silver as on the warehouse engine ({@link LakehousePii}). Thread-safe.
 */
public final class LakehouseEngine implements LayerEngine {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(LakehouseEngine.class);

    private final Warehouse warehouse;
    private final PipelineSpec spec;
    private final LakehouseCatalog lakehouse;
    private @Nullable LakehousePurge purge;

    public LakehouseEngine(Warehouse warehouse, PipelineSpec spec) {
        this.warehouse = warehouse;
        this.spec = spec;
        this.lakehouse = new LakehouseCatalog(warehouse.jdbcUrl(), warehouse.spec().user(), warehouse.spec().password(),
                spec.engine().location());
    }

    /**
     * {@inheritDoc}
     *
     * @throws SluiceException when another pipeline has built one of this pipeline's Silver/Gold
     *     datasets in this warehouse
     */
    @Override
    public void createTables() {
        new PartitionVersions(warehouse.dsl()).refuseDatasetsOfOtherPipelines(spec);
        IcebergTables.create(catalog(), spec);
        reconcilePublications();
    }

    /** {@inheritDoc} Rollbacks committed to Iceberg and not recorded ({@link InterruptedRollbacks}), of every Silver/Gold table. */
    @Override
    public void reconcilePublications() {
        for (TableSpec t : spec.tables()) {
            if (t.layer() != Layer.BRONZE) {
                reconcile(t, null);
            }
        }
    }

    /** {@inheritDoc} The partition's rollback committed to Iceberg and not recorded, if any. */
    @Override
    public void reconcilePublication(TableSpec table, Partition partition) {
        reconcile(table, partition);
    }

    /** Completes {@code table}'s interrupted rollbacks (of {@code partition}, or all), in a transaction of its own or the caller's. */
    private void reconcile(TableSpec table, @Nullable Partition partition) {
        new TransactionTemplate(warehouse.transactionManager()).executeWithoutResult(
                status -> InterruptedRollbacks.complete(catalog(), warehouse.dsl(), table, partition));
    }

    /**
     * The Iceberg table's location and a snapshot id: a version's branch head, or the current
     * snapshot (null when the branch was pruned or the table has none); empty when the table does
     * not exist (yet).
     */
    @Override
    public Optional<StoredTable> stored(TableSpec table, Partition partition, @Nullable Integer version) {
        Table t;
        try {
            t = catalog().loadTable(LakehouseNames.iceberg(table.table()));
        } catch (org.apache.iceberg.exceptions.NoSuchTableException missing) {
            return Optional.empty();
        }
        Long snapshot;
        if (version != null) {
            snapshot = PartitionBranches.head(t, PartitionBranches.name(partition, version));
        } else {
            Snapshot current = t.currentSnapshot();
            snapshot = current == null ? null : current.snapshotId();
        }
        return Optional.of(new StoredTable(t.location(), "iceberg",
                t.properties().getOrDefault(org.apache.iceberg.TableProperties.DEFAULT_FILE_FORMAT, "parquet"),
                LakehouseNames.PARTITION, snapshot == null ? null : Long.toString(snapshot)));
    }

    @Override
    public BronzeSink bronzeSink(BronzeColumns columns) {
        return new IcebergBronzeSink(catalog().loadTable(LakehouseNames.iceberg(columns.table())), columns);
    }

    /** Read from the table's data files (rows of the load and their highest {@code _source_pos}), never from snapshot summaries. */
    @Override
    public LoadPosition committed(DatasetRef bronzeTable, Partition partition, String source, RunId run) {
        Table table = catalog().loadTable(LakehouseNames.iceberg(bronzeTable));
        long rows = 0;
        long last = -1;
        try (CloseableIterable<Record> load = IcebergGenerics.read(table)
                .where(Expressions.and(Expressions.equal(LakehouseNames.PARTITION, partition.key()),
                        Expressions.equal("_source", source), Expressions.equal("_run_id", run.toString())))
                .select("_source_pos", LakehouseNames.PARTITION, "_source", "_run_id").build()) {
            for (Record r : load) {
                if (partition.key().equals(r.getField(LakehouseNames.PARTITION)) && source.equals(r.getField("_source"))
                        && run.toString().equals(r.getField("_run_id"))) {
                    rows++;
                    last = Math.max(last, (Long) r.getField("_source_pos"));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + bronzeTable + " of the lakehouse", e);
        }
        return rows == 0 ? LoadPosition.NONE : new LoadPosition(rows, last);
    }

    @Override
    public void addBronzeColumn(TableSpec bronze, ColumnSpec column) {
        Table table = catalog().loadTable(LakehouseNames.iceberg(bronze.table()));
        if (table.schema().findField(column.name()) == null) {
            table.updateSchema().addColumn(column.name(), IcebergTypes.of(column)).commit();
        }
    }

    /**
     * {@inheritDoc} Rewrites the partition's data files into one (Iceberg's bin-pack rewrite, a
     * Spark job) when the load left two or more, then expires every snapshot older than the current
     * one: Bronze keeps every row in its current snapshot, so only the chunks' commit history goes;
     * then the chunk files the rewrite replaced are deleted ({@link BronzeCompaction}).
     * One partition at a time per table in this JVM: an expiry during another partition's rewrite
     * removes the history its commit validates against ("Cannot determine history between starting
     * snapshot …", measured in a backfill wave), and its files would stay uncompacted.
     */
    @Override
    public void bronzeLoaded(TableSpec bronze, Partition partition) {
        Object lock = MAINTENANCE.computeIfAbsent(lakehouse.location() + "/" + bronze.table(), k -> new Object());
        synchronized (lock) {
            maintain(bronze, partition);
        }
    }

    /** One lock per lakehouse Bronze table for its compaction and expiry, for the JVM's life. */
    private static final java.util.concurrent.ConcurrentMap<String, Object> MAINTENANCE = new java.util.concurrent.ConcurrentHashMap<>();

    private void maintain(TableSpec bronze, Partition partition) {
        try {
            BronzeCompaction.compact(catalog().loadTable(LakehouseNames.iceberg(bronze.table())), partition, this::spark);
        } catch (IOException | RuntimeException e) {
            LOG.warn("{} partition {}: its Bronze load is complete, but compacting its data files, expiring the load's snapshots or"
                    + " deleting the files the compaction replaced failed (left for the next load, or for sluice purge): {}",
                    bronze.table(), partition, e.toString());
        }
    }

    @Override
    public TransformResult write(TableSpec table, Partition partition, RunId run) {
        return new LakehouseTransform(spark(), catalog(), warehouse.dsl(), spec, table).apply(partition, run);
    }

    /** {@inheritDoc} A partitioned table whose every partition reads its own input partition (not a rollup, not a snapshot). */
    @Override
    public boolean stagesWaves(TableSpec table) {
        return LakehouseTransform.writesWaves(spec, table);
    }

    /**
     * {@inheritDoc} One scan of the wave's input, one UNION ALL of each partition's SELECT, one
     * Iceberg commit writing every partition to the first one's version branch, one change of refs
     * pointing the others' branches at it ({@link LakehouseTransform}). When that job fails in its
     * tasks (one partition's rows raising an error in the table's SQL fail it for all), none is
     * staged: each partition's step writes it ({@link #write}) and only those that fail alone fail; a
     * failure before any task runs (the SQL, the catalog) fails the wave's partitions at once.
     */
    @Override
    public Map<Partition, dev.sluice.engine.StagedWrite> stageWave(TableSpec table, SortedMap<Partition, RunId> runs) {
        if (!stagesWaves(table)) {
            // a snapshot's or rollup's version number is claimed in its own step's transaction (LakehouseTransform#claim)
            throw new UnsupportedOperationException(table.table() + " is not written by waves on this engine");
        }
        LakehouseTransform transform = new LakehouseTransform(spark(), catalog(), warehouse.dsl(), spec, table);
        try {
            return transform.stage(runs);
        } catch (Exception e) { // Spark's SparkException is checked in Java, though Scala throws it undeclared
            if (runs.size() == 1 || !failedInATask(e)) {
                throw unchecked(e);
            }
            // one partition's rows can fail the wave's one job (a runtime error of the SQL on its data, failing its
            // tasks): none is staged, so each partition's own step writes it (write(), with the backfill's
            // parallelism and stop checks), and only the partition that fails alone fails
            LOG.warn("{}: the wave's one job for {} partitions failed, so each partition's step writes it alone: {}", table.table(),
                    runs.size(), String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
            return Map.of();
        }
    }

    /** Whether a Spark job failed in its tasks (a SparkException in the causes), not in planning or the catalog. */
    private static boolean failedInATask(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof org.apache.spark.SparkException) {
                return true;
            }
        }
        return false;
    }

    private static RuntimeException unchecked(Exception e) {
        return e instanceof RuntimeException r ? r : new SluiceException(String.valueOf(e.getMessage()).lines().findFirst().orElse(e.toString()), e);
    }

    @Override
    public long inputRows(TableSpec table, Partition partition) {
        return new LakehouseInput(spark(), warehouse.dsl(), spec, table).rows(partition).count();
    }

    /** {@inheritDoc} The version's branch becomes the partition's files on main ({@link LakehousePublisher}). */
    @Override
    public void publish(TableSpec table, Partition partition, int version, RunId run) {
        new LakehousePublisher(catalog(), warehouse.dsl(), spec).publish(table, partition, version, run);
    }

    /** {@inheritDoc} The versions whose branch is kept ({@link PartitionBranches}). */
    @Override
    public List<Integer> keptVersions(TableSpec table, Partition partition) {
        if (!catalog().tableExists(LakehouseNames.iceberg(table.table()))) {
            return List.of();
        }
        return PartitionBranches.kept(IcebergTables.load(catalog(), table), partition);
    }

    /**
     * {@inheritDoc} A version whose branch was removed: looked up only when a version
     * {@code versions.keep} newer was written (a publication prunes the branches that many below
     * the version it publishes), so a gate's usual check asks the control plane alone.
     */
    @Override
    public boolean pruned(TableSpec table, Partition partition, int version) {
        return new LakehousePublisher(catalog(), warehouse.dsl(), spec).pruned(table, partition, version);
    }

    /**
     * {@inheritDoc} The kept version's branch files become the partition's on main again (one
     * Iceberg commit replacing that partition's files only), then the control plane records the
     * publication and the rollback; no branch is pruned.
     */
    @Override
    public int rollback(TableSpec table, Partition partition, @Nullable Integer toVersion, String requestedBy, String reason) {
        versions().lockPublished(table.table(), partition); // before the kept branches are read: see PartitionVersions#rollback
        InterruptedRollbacks.complete(catalog(), warehouse.dsl(), table, partition); // moves from what main holds
        PartitionVersions.Move move = versions().rollbackMove(table, partition, keptVersions(table, partition), toVersion);
        new LakehousePublisher(catalog(), warehouse.dsl(), spec).restore(table, partition, move, requestedBy, reason);
        return move.to();
    }

    /** {@inheritDoc} A Silver/Gold version is judged on its branch, before it is published. */
    @Override
    public PartitionSource gateSource(TableSpec table, GateTarget target) {
        Table iceberg = table.layer() == Layer.BRONZE ? null : IcebergTables.load(catalog(), table);
        return new PartitionSource.TableSnapshot(lakehouse, LakehouseNames.spark(table.table()), candidate(iceberg, table, target),
                condition(table, target), columns(table, target.version()), rowIdColumn(table), target.partition().nominalEnd());
    }

    /** {@inheritDoc} One read of every member, each at its own version's branch head. */
    @Override
    public PartitionBatch gateWave(TableSpec table, List<GateTarget> targets) {
        Table iceberg = table.layer() == Layer.BRONZE ? null : IcebergTables.load(catalog(), table);
        return new PartitionBatch.TableSnapshot(lakehouse, LakehouseNames.spark(table.table()), null, columns(table, null),
                LakehouseNames.LOGICAL_PARTITION, rowIdColumn(table),
                targets.stream().map(t -> new PartitionBatch.Member(t.partition(), condition(table, t), t.partition().nominalEnd(),
                        candidate(iceberg, table, t))).toList());
    }

    /**
     * The snapshot a gate judges: a Silver/Gold version's branch head in {@code iceberg} (loaded
     * once per gate; null for Bronze), or null (the table's current snapshot) without a version.
     *
     * @throws SluiceException when the version's branch is gone (pruned)
     */
    private @Nullable Long candidate(@Nullable Table iceberg, TableSpec table, GateTarget target) {
        if (iceberg == null || target.version() == null) {
            return null;
        }
        String branch = PartitionBranches.name(target.partition(), target.version());
        Long head = PartitionBranches.head(iceberg, branch);
        if (head == null) {
            throw new SluiceException(table.table() + " partition " + target.partition() + ": version " + target.version()
                    + " has no branch " + branch + " to judge (pruned); re-run the partition");
        }
        return head;
    }

    /**
     * {@inheritDoc} Spark SQL {@code UPDATE} (copy-on-write: the data files holding the value are
     * rewritten) and, for {@code _parse_errors}, one {@code MERGE INTO} of the redacted texts; then
     * every snapshot but the current one is expired, which deletes the files that held the value.
     * Time travel to the table's earlier snapshots ends there. Data files no snapshot ever referenced
     * (a write killed before its commit) are not looked at.
     */
    @Override
    public long redactBronze(TableSpec bronze, BronzeRedaction r, java.util.Set<String> partitions) {
        if (!catalog().tableExists(LakehouseNames.iceberg(bronze.table()))) {
            return 0; // never loaded: nothing to erase
        }
        return new IcebergRedaction(spark(), catalog(), bronze).redact(r, partitions);
    }

    private static @Nullable String rowIdColumn(TableSpec table) {
        return table.layer() == Layer.BRONZE ? "_source_pos" : null;
    }

    /** The rows a gate judges: Bronze, the partition's current loads; Silver/Gold, the partition (of the version's branch). */
    private String condition(TableSpec table, GateTarget target) {
        String partition = LakehouseTransform.partitionIs(target.partition());
        if (table.layer() != Layer.BRONZE) {
            return partition;
        }
        return partition + " AND " + LakehouseInput.currentLoads(new dev.sluice.control.landing.LandedFileRepository(warehouse.dsl())
                .currentLoads(table.table().qualifiedName(), target.partition()));
    }

    /** The judged columns with their logical names: the business columns, then the metadata columns checks may name. */
    private List<String> columns(TableSpec table, @Nullable Integer version) {
        List<String> columns = new ArrayList<>();
        List<ColumnSpec> business = table.layer() == Layer.BRONZE && table.source() != null
                ? spec.source(table.source()).orElseThrow().contract().columns() : table.columns();
        business.forEach(c -> columns.add("`" + c.name() + "`"));
        for (String m : (table.layer() == Layer.BRONZE ? MetadataColumns.BRONZE : MetadataColumns.REFINED).keySet()) {
            if (m.equals("_version")) {
                columns.add("CAST(" + (version == null ? "NULL" : version.toString()) + " AS INT) AS `_version`");
            } else {
                columns.add("`" + LakehouseNames.physical(m) + "` AS `" + m + "`");
            }
        }
        return columns;
    }

    private Catalog catalog() {
        return IcebergTables.catalog(lakehouse);
    }

    private SparkSession spark() {
        return SparkSessions.lakehouse(spec.sparkMaster(), lakehouse);
    }

    private PartitionVersions versions() {
        return new PartitionVersions(warehouse.dsl());
    }

    @Override
    public QueryResult query(String sql, int maxRows) {
        LakehouseSql.Result r = LakehouseSql.query(spec, warehouse, sql, maxRows);
        return new QueryResult(r.columns(), r.rows(), r.total());
    }


    /** {@inheritDoc} The version's branch (its files go with the next snapshot expiry); committed at once. */
    @Override
    public long purgeVersion(DSLContext tx, TableSpec table, String partition, int version, boolean dryRun) {
        return purge().version(table, partition, version, dryRun);
    }

    /** {@inheritDoc} One Spark {@code DELETE}, an Iceberg commit of its own. */
    @Override
    public long purgeBronzeLoad(DSLContext tx, TableSpec bronze, String partition, String source, String run, boolean dryRun) {
        return purge().bronzeLoad(bronze, partition, source, run, dryRun);
    }

    @Override
    public Map<String, Long> purgeStorage(Instant cutoff, Instant orphansBefore, boolean dryRun) {
        Map<String, Long> removed = new LinkedHashMap<>();
        removed.put("lakehouse snapshots", purge().expireSnapshots(cutoff, dryRun));
        removed.put("lakehouse orphan files", purge().orphanFiles(orphansBefore, dryRun));
        return removed;
    }

    /** This engine's purge: one per engine instance (a dry run remembers the branches it would remove). */
    private synchronized LakehousePurge purge() {
        if (purge == null) {
            purge = new LakehousePurge(spec, warehouse);
        }
        return purge;
    }
}
