package dev.sluice.control.version;

import dev.sluice.control.run.RunRepository;
import dev.sluice.control.run.RunStatus;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.FaultPoints;
import dev.sluice.core.Layer;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import dev.sluice.core.SluiceException;
import dev.sluice.warehouse.meta.PartitionVersionTable;
import dev.sluice.warehouse.meta.PublishedPartitionTable;
import dev.sluice.warehouse.meta.RollbackLogTable;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record1;
import org.jooq.Record2;
import org.jooq.Record4;
import org.jooq.Table;
import org.jooq.exception.IntegrityConstraintViolationException;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

/**
 * Which version of each Silver/Gold partition readers see ({@code sluice.published_partition}),
 * publishing a new one and rolling back to a kept one ({@code sluice.rollback_log}), and which
 * versions a run wrote ({@code sluice.partition_version}). Each change is one statement pair in the
 * caller's transaction, so readers see the old version or the new one, never a mix. Thread-safe.
 */
public final class PartitionVersions {

    private static final Table<?> PUBLISHED = PublishedPartitionTable.TABLE;
    private static final Table<?> LOG = RollbackLogTable.TABLE;
    private static final Field<String> DATASET = DSL.field(DSL.name("dataset"), String.class);
    private static final Field<String> PARTITION = DSL.field(DSL.name("partition_key"), String.class);
    private static final Field<Integer> VERSION = DSL.field(DSL.name("version"), Integer.class);
    private static final Field<String> RUN = DSL.field(DSL.name("run_id"), String.class);
    private static final Field<OffsetDateTime> AT = DSL.field(DSL.name("published_at"), OffsetDateTime.class);
    private static final Table<?> WRITTEN = PartitionVersionTable.TABLE;
    private static final Field<Integer> WRITTEN_VERSION = DSL.field(DSL.name("version"), Integer.class);
    private static final Field<String> FINGERPRINT = DSL.field(DSL.name("input_fingerprint"), String.class);
    private static final Field<Integer> BASE = DSL.field(DSL.name("base_version"), Integer.class);
    /** TRUE once the version was published; FALSE while it never was; NULL when not known (written before V31, or by an older build). */
    private static final Field<Boolean> PUBLISHED_ONCE = DSL.field(DSL.name("published_once"), Boolean.class);
    /**
     * {@code base_version} of the versions written before it was recorded (migration V30): not
     * known, so never equal to a published version (such a version pending publication is built
     * again), but a rollback target.
     */
    private static final int UNKNOWN_BASE = -1;

    private final DSLContext dsl;

    public PartitionVersions(DSLContext dsl) {
        this.dsl = dsl;
    }

    /**
     * Makes {@code version} the one readers see: an UPDATE of the partition's published row, or its
     * INSERT when it has none. An UPDATE, not a DELETE and an INSERT: a publication that waited for
     * another transaction's (a rollback's) then updates the row that one left; after a DELETE and an
     * INSERT it found no row to delete and failed on the key of the row inserted.
     *
     * @throws StaleVersionException when another run published the partition's first version meanwhile
     */
    public void publish(DatasetRef dataset, Partition partition, int version, RunId run) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        if (dsl.update(PUBLISHED).set(VERSION, version).set(RUN, run.toString()).set(AT, now)
                .where(DATASET.eq(dataset.qualifiedName()), PARTITION.eq(partition.key())).execute() == 0) {
            try {
                dsl.insertInto(PUBLISHED).set(DATASET, dataset.qualifiedName()).set(PARTITION, partition.key())
                        .set(VERSION, version).set(RUN, run.toString()).set(AT, now).execute();
            } catch (IntegrityConstraintViolationException raced) {
                throw new StaleVersionException(dataset + " partition " + partition + ": version " + version + " (run " + run
                        + ") was to be the first version published, but another run published one meanwhile; it is not published."
                        + " The step's retry (or a plain run) publishes again.", raced);
            }
        }
        markPublished(dataset, partition, version);
    }

    /**
     * Locks the partition's published row until the caller's transaction ends (nothing when none
     * is published yet): a rollback takes it before it reads the kept versions, and a lakehouse
     * publication before its Iceberg commit, so that each one's Iceberg commit and control-plane
     * record come together, never interleaved with the other's, once the partition has a published
     * version (two first publications of a partition are not serialized by it: the second's record
     * fails, retriably, after both Iceberg commits).
     */
    public void lockPublished(DatasetRef dataset, Partition partition) {
        dsl.select(VERSION).from(PUBLISHED).where(DATASET.eq(dataset.qualifiedName()), PARTITION.eq(partition.key())).forUpdate().fetch();
    }

    /**
     * A version written ({@code sluice.partition_version}).
     *
     * @param version its number (1, 2, …)
     * @param inputFingerprint the fingerprint of what it was built from, or null when none was recorded
     * @param baseVersion the published version a {@code merge-on-key} version was built on (its rows
     *     carried over), or null: nothing was published then, or the table is not {@code merge-on-key}
     * @param run the run that wrote it
     */
    public record Written(int version, @Nullable String inputFingerprint, @Nullable Integer baseVersion, RunId run) {
    }

    /**
     * Whether a snapshot partition's newest version {@code last}, built from the same input as a run
     * now has ({@link SnapshotFingerprint}), leaves that run nothing to do:
     * <ul>
     *   <li>it is the published version;</li>
     *   <li>a rollback moved away from it (a run with the same input leaves the rollback as it is);</li>
     *   <li>or it waits for publication by an attempt that may still publish it ({@code sluice.run}
     *       STARTED, killed and not yet restarted, FAILED or STOPPED: a plain run restarts those),
     *       and for {@code merge-on-key} was built on the version published now.</li>
     * </ul>
     * Otherwise the run builds its own version: the version's attempt was abandoned for
     * {@code --rerun} (ABANDONED), completed without publishing it (another version was published
     * after it), or is not recorded. Before, a {@code --rerun} after a failed gate found the
     * fingerprint, wrote nothing and completed, and the rows never reached the snapshot.
     */
    public boolean settles(TableSpec table, Partition partition, Written last) {
        DatasetRef dataset = table.table();
        Integer published = published(dataset, partition).orElse(null);
        if (Integer.valueOf(last.version()).equals(published) || rolledBackFrom(dataset, partition, last.version())) {
            return true;
        }
        // a FAILED or STOPPED attempt is restarted by a plain run, which publishes its version: still pending
        boolean pending = new RunRepository(dsl).status(last.run())
                .map(s -> s == RunStatus.STARTED || s == RunStatus.FAILED || s == RunStatus.STOPPED).orElse(false);
        return pending && (!table.mergeOnKey() || Objects.equals(published, last.baseVersion()));
    }

    /**
     * Publishes a {@code merge-on-key} version only while the version it was built on
     * ({@link Written#baseVersion}) is still the published one: one conditional UPDATE of the
     * published row (or its INSERT when the version was built on nothing), so that of two runs that
     * built on the same version the second is refused whatever the timing, in one process or
     * several. A version published before ({@link #wasPublished}: now, or since superseded or rolled
     * back) is left as it is: a gate step restarted after its publication committed publishes
     * nothing again.
     *
     * @throws StaleVersionException when another version was published since this one was built
     */
    public void publishOnBase(DatasetRef dataset, Partition partition, int version, RunId run) {
        Integer base = baseOf(dataset, partition, version);
        Integer current = published(dataset, partition).orElse(null);
        if (wasPublished(dataset, partition, version, current)) {
            return;
        }
        boolean set;
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        if (base == null) {
            try {
                set = current == null && dsl.insertInto(PUBLISHED).set(DATASET, dataset.qualifiedName()).set(PARTITION, partition.key())
                        .set(VERSION, version).set(RUN, run.toString()).set(AT, now).execute() == 1;
            } catch (IntegrityConstraintViolationException raced) {
                // another run published the partition's first version meanwhile; on PostgreSQL the
                // transaction is aborted now, so the message asks nothing more of the database
                throw new StaleVersionException(dataset + " partition " + partition + ": version " + version + " (run " + run
                        + ") was built on no published version, but another run published one meanwhile; it is not published."
                        + " The gate step's retry (or a plain run) builds the next version on it.", raced);
            }
        } else {
            set = dsl.update(PUBLISHED).set(VERSION, version).set(RUN, run.toString()).set(AT, now)
                    .where(DATASET.eq(dataset.qualifiedName()), PARTITION.eq(partition.key()), VERSION.eq(base)).execute() == 1;
        }
        if (!set) {
            throw stale(dataset, partition, version, run, base);
        }
        markPublished(dataset, partition, version);
    }

    /** Records that {@code version} was published (in the publication's transaction). */
    private void markPublished(DatasetRef dataset, Partition partition, int version) {
        dsl.update(WRITTEN).set(PUBLISHED_ONCE, true)
                .where(DATASET.eq(dataset.qualifiedName()), PARTITION.eq(partition.key()), WRITTEN_VERSION.eq(version)).execute();
    }

    /** The versions of a partition known never to have been published (their gate failed, or they were superseded while waiting). */
    private Set<Integer> neverPublished(DatasetRef dataset, Partition partition) {
        return new HashSet<>(dsl.select(WRITTEN_VERSION).from(WRITTEN)
                .where(DATASET.eq(dataset.qualifiedName()), PARTITION.eq(partition.key()), PUBLISHED_ONCE.isFalse())
                .fetch(WRITTEN_VERSION));
    }

    /**
     * Refuses a {@code merge-on-key} version that is {@link #refused}, without publishing anything:
     * the lakehouse's check before its Iceberg commit (which validates the partition against
     * changes since the version's branch was made; {@link #publishOnBase} checks again as it
     * publishes).
     *
     * @throws StaleVersionException when another version was published since this one was built
     */
    public void refuseStale(DatasetRef dataset, Partition partition, int version, RunId run) {
        if (refused(dataset, partition, version)) {
            throw stale(dataset, partition, version, run, baseOf(dataset, partition, version));
        }
    }

    /**
     * Whether a {@code merge-on-key} version was refused and can never be published as it is: it is
     * not published, was never published, and the version it was built on is no longer the
     * published one. Such a version must be built again on the published one.
     */
    public boolean refused(DatasetRef dataset, Partition partition, int version) {
        Integer current = published(dataset, partition).orElse(null); // read once: both answers about the same publication
        return !Objects.equals(baseOf(dataset, partition, version), current) && !wasPublished(dataset, partition, version, current);
    }

    /** Whether a {@code merge-on-key} version was built on the version published now (or both are none). */
    public boolean builtOnPublished(DatasetRef dataset, Partition partition, int version) {
        return Objects.equals(baseOf(dataset, partition, version), published(dataset, partition).orElse(null));
    }

    /**
     * Whether a {@code merge-on-key} version is published or was: a later version was built on it (a
     * version is built on the published one), or a rollback moved away from it. A version published
     * once is never published again by a run.
     */
    public boolean wasPublished(DatasetRef dataset, Partition partition, int version) {
        return wasPublished(dataset, partition, version, published(dataset, partition).orElse(null));
    }

    private boolean wasPublished(DatasetRef dataset, Partition partition, int version, @Nullable Integer current) {
        return Integer.valueOf(version).equals(current)
                || dsl.fetchExists(DSL.selectOne().from(WRITTEN)
                        .where(DATASET.eq(dataset.qualifiedName()), PARTITION.eq(partition.key()), BASE.eq(version)))
                || rolledBackFrom(dataset, partition, version);
    }

    /** Whether a rollback of the partition moved away from {@code version} ({@code sluice.rollback_log.from_version}). */
    private boolean rolledBackFrom(DatasetRef dataset, Partition partition, int version) {
        return dsl.fetchExists(DSL.selectOne().from(LOG).where(DATASET.eq(dataset.qualifiedName()), PARTITION.eq(partition.key()),
                DSL.field(DSL.name("from_version"), Integer.class).eq(version)));
    }

    private @Nullable Integer baseOf(DatasetRef dataset, Partition partition, int version) {
        return dsl.select(BASE).from(WRITTEN)
                .where(DATASET.eq(dataset.qualifiedName()), PARTITION.eq(partition.key()), WRITTEN_VERSION.eq(version))
                .fetchOptional(BASE).orElse(null);
    }

    private StaleVersionException stale(DatasetRef dataset, Partition partition, int version, RunId run, @Nullable Integer base) {
        Integer now = published(dataset, partition).orElse(null);
        String by = now == null ? "" : runOf(dataset, partition, now).map(r -> " (run " + r + ")").orElse("");
        return new StaleVersionException(dataset + " partition " + partition + ": version " + version + " (run " + run
                + ") was built on " + (base == null ? "no published version" : base == UNKNOWN_BASE ? "a version not recorded (written before"
                + " this check existed)" : "version " + base) + (now == null
                        ? ", and no version is published now (purged or never published); it is not published. The gate step's retry"
                                + " (or a plain run) builds the next version."
                        : ", but version " + now + by + " was published meanwhile; publishing " + version + " would drop the rows " + now
                                + " added, so it is not published. The gate step's retry (or a plain run) builds the next version on "
                                + now + "."));
    }

    /**
     * Refuses a pipeline whose Silver/Gold datasets another pipeline has written versions of in
     * this warehouse: versions and publications are recorded by dataset name, so two pipelines
     * writing one dataset would publish and prune each other's versions. Both engines call it as
     * they create tables.
     *
     * @throws SluiceException naming the first such dataset and the pipeline that wrote it
     */
    public void refuseDatasetsOfOtherPipelines(PipelineSpec spec) {
        List<String> datasets = spec.tables().stream().filter(t -> t.layer() != Layer.BRONZE).map(t -> t.table().qualifiedName()).toList();
        Field<String> pipeline = DSL.field(DSL.name("pipeline"), String.class);
        Record2<String, String> other = dsl.select(DATASET, pipeline).from(WRITTEN)
                .where(DATASET.in(datasets), pipeline.ne(spec.name())).orderBy(DATASET).limit(1).fetchOne();
        if (other != null) {
            throw new SluiceException(spec.name() + ": " + other.value1() + " is already built by pipeline " + other.value2()
                    + " in this warehouse; a dataset belongs to one pipeline (its versions and publications are recorded by"
                    + " name): give this pipeline's table another name, or another warehouse (a renamed pipeline: docs/engines.md,"
                    + " \"One pipeline per dataset\")");
        }
    }

    /** The newest version written of a partition, published or not, or null when none was. */
    public @Nullable Written newest(DatasetRef dataset, Partition partition) {
        Record4<Integer, String, Integer, String> r = dsl.select(WRITTEN_VERSION, FINGERPRINT, BASE, RUN).from(WRITTEN)
                .where(DATASET.eq(dataset.qualifiedName()), PARTITION.eq(partition.key()))
                .orderBy(WRITTEN_VERSION.desc()).limit(1).fetchOne();
        return r == null ? null : new Written(r.value1(), r.value2(), r.value3(), RunId.parse(r.value4()));
    }

    /**
     * Records that {@code run} of {@code pipeline} wrote {@code version} of a partition with
     * {@code rows} rows, built from what {@code inputFingerprint} names and, for a
     * {@code merge-on-key} table, on the published version {@code baseVersion} (null: none was
     * published, or another write mode). Not yet published.
     */
    public void recordWritten(DatasetRef dataset, Partition partition, int version, String pipeline, RunId run, long rows,
            String inputFingerprint, @Nullable Integer baseVersion) {
        try {
            dsl.insertInto(WRITTEN).set(DATASET, dataset.qualifiedName()).set(PARTITION, partition.key())
                    .set(WRITTEN_VERSION, version).set(DSL.field(DSL.name("pipeline"), String.class), pipeline)
                    .set(RUN, run.toString())
                    .set(DSL.field(DSL.name("row_count"), Long.class), rows)
                    .set(AT, OffsetDateTime.now(ZoneOffset.UTC))
                    .set(FINGERPRINT, inputFingerprint)
                    .set(BASE, baseVersion)
                    .set(PUBLISHED_ONCE, false)
                    .execute();
        } catch (IntegrityConstraintViolationException raced) {
            // another process took the same next version number; the step's retry takes the next one
            throw new StaleVersionException(dataset + " partition " + partition + ": version " + version + " was written meanwhile"
                    + " by another run (another process); this run's write is rolled back, and the step's retry writes the next"
                    + " version", raced);
        }
    }

    /** Sets the rows of a version recorded before they were written (the lakehouse's claim of a snapshot's version number). */
    public void recordRows(DatasetRef dataset, Partition partition, int version, long rows) {
        dsl.update(WRITTEN).set(DSL.field(DSL.name("row_count"), Long.class), rows)
                .where(DATASET.eq(dataset.qualifiedName()), PARTITION.eq(partition.key()), WRITTEN_VERSION.eq(version)).execute();
    }

    /**
     * The newest version of a partition that {@code run} wrote ({@code sluice.partition_version}),
     * or null when it wrote none.
     */
    public @Nullable Integer writtenBy(DatasetRef dataset, Partition partition, RunId run) {
        Record1<Integer> r = dsl.select(DSL.max(WRITTEN_VERSION)).from(WRITTEN)
                .where(DSL.field(DSL.name("dataset")).eq(dataset.qualifiedName()),
                        DSL.field(DSL.name("partition_key")).eq(partition.key()),
                        DSL.field(DSL.name("run_id")).eq(run.toString())).fetchOne();
        return r == null ? null : r.value1();
    }

    /** The published version of a partition, if any. */
    public Optional<Integer> published(DatasetRef dataset, Partition partition) {
        return dsl.select(VERSION).from(PUBLISHED)
                .where(DATASET.eq(dataset.qualifiedName()), PARTITION.eq(partition.key())).fetchOptional(VERSION);
    }

    /** The latest rollback of a partition ({@code sluice.rollback_log}), if any. */
    public Optional<Rollback> lastRollback(DatasetRef dataset, Partition partition) {
        Field<Integer> from = DSL.field(DSL.name("from_version"), Integer.class);
        Field<Integer> to = DSL.field(DSL.name("to_version"), Integer.class);
        Field<String> who = DSL.field(DSL.name("requested_by"), String.class);
        Field<OffsetDateTime> at = DSL.field(DSL.name("rolled_back_at"), OffsetDateTime.class);
        return dsl.select(from, to, who, at).from(LOG).where(DATASET.eq(dataset.qualifiedName()), PARTITION.eq(partition.key()))
                .orderBy(DSL.field(DSL.name("rollback_id")).desc()).limit(1)
                .fetchOptional(r -> new Rollback(r.value1(), r.value2(), r.value3(), r.value4()));
    }

    /**
     * The rows recorded for a written version ({@code sluice.partition_version.row_count}).
     *
     * @return null when the version was not recorded, or was recorded before its rows were counted
     */
    public @Nullable Long writtenRows(DatasetRef dataset, Partition partition, int version) {
        Field<Long> rows = DSL.field(DSL.name("row_count"), Long.class);
        return dsl.select(rows).from(WRITTEN)
                .where(DATASET.eq(dataset.qualifiedName()), PARTITION.eq(partition.key()), WRITTEN_VERSION.eq(version)).fetchOptional(rows)
                .orElse(null);
    }

    /**
     * The refusal to publish a version that was pruned (an engine's {@code pruned}) (or whose lakehouse branch was
     * removed) while it waited: publishing it would publish no rows.
     */
    public static StaleVersionException prunedMeanwhile(DatasetRef dataset, Partition partition, int version, RunId run, int keep) {
        return new StaleVersionException(dataset + " partition " + partition + ": version " + version + " (run " + run + ") was pruned"
                + " while it waited for publication (versions.keep " + keep + ": later versions were published meanwhile); it is not"
                + " published. The gate step's retry (or a plain run) builds it again.");
    }

    /**
     * A rollback's versions: from the published one to {@code toVersion}, or to the newest kept
     * version before the published one that was published itself (a version whose gate failed, or
     * that was superseded while it waited, is passed over; versions written before migration V31
     * are not known and count as published).
     */
    public record Move(int from, int to) {
    }

    /**
     * Where a rollback of a partition of {@code table} goes, given the versions an engine keeps (read
     * after {@link #lockPublished}, in the rollback's transaction): {@code toVersion}, or with none
     * named the newest kept version before the published one that was published itself (a version
     * whose gate failed is passed over; {@code published_once}). A {@code merge-on-key} version that
     * was refused ({@link #refused}: never published, built on a version since superseded) is no
     * rollback target: publishing it would drop the rows of the versions published after its base.
     *
     * @throws SluiceException when the partition has no published version, or the wanted version
     *     is not among {@code kept} (pruned or never written), or was refused
     */
    public Move rollbackMove(TableSpec table, Partition partition, List<Integer> kept, @Nullable Integer toVersion) {
        DatasetRef dataset = table.table();
        if (table.mergeOnKey()) {
            if (toVersion != null && kept.contains(toVersion) && !Objects.equals(baseOf(dataset, partition, toVersion), UNKNOWN_BASE)
                    && refused(dataset, partition, toVersion)) {
                throw new SluiceException(dataset + " partition " + partition + ": version " + toVersion + " was never published: it"
                        + " was refused because another version was published after the one it was built on, and publishing it would"
                        + " drop that version's rows");
            }
            kept = kept.stream().filter(v -> Objects.equals(baseOf(dataset, partition, v), UNKNOWN_BASE) || !refused(dataset, partition, v))
                    .toList();
        }
        return rollbackMove(dataset, partition, kept, toVersion);
    }

    private Move rollbackMove(DatasetRef dataset, Partition partition, List<Integer> kept, @Nullable Integer toVersion) {
        int current = published(dataset, partition).orElseThrow(() -> new SluiceException(
                dataset + " has no published version of partition " + partition));
        // with no version named: the newest kept one before the published one that was published itself, never one that waited
        // unpublished (its gate failed): publishing that would skip its gate
        Set<Integer> never = toVersion != null ? Set.of() : neverPublished(dataset, partition);
        int target = toVersion != null ? toVersion
                : kept.stream().filter(v -> v < current && !never.contains(v)).reduce((a, b) -> b).orElseThrow(() -> new SluiceException(
                        dataset + " partition " + partition + " keeps no version before " + current + " that was published (kept: " + kept
                                + (never.isEmpty() ? "" : "; never published: " + never.stream().sorted().toList()) + ")"));
        if (!kept.contains(target)) {
            throw new SluiceException(dataset + " partition " + partition + " does not keep version " + target
                    + " (kept: " + kept + "; versions.keep in the spec sets how many)");
        }
        return new Move(current, target);
    }

    /** The run that wrote {@code version} of a partition ({@code sluice.partition_version}), if still recorded (purge drops old records). */
    public Optional<RunId> runOf(DatasetRef dataset, Partition partition, int version) {
        return dsl.select(RUN).from(WRITTEN)
                .where(DATASET.eq(dataset.qualifiedName()), PARTITION.eq(partition.key()), WRITTEN_VERSION.eq(version))
                .limit(1).fetchOptional(RUN).map(RunId::parse);
    }

    /**
     * Records a rollback done in the data plane: {@code target} (written by {@code run}) published
     * again in place of {@code current}, with who asked and why ({@code sluice.rollback_log}).
     * Unconditional: a version a run publishes meanwhile is replaced (the lakehouse commits the
     * rollback's files to Iceberg before this record, so a refusal here would leave the two apart).
     */
    public void recordRollback(DatasetRef dataset, Partition partition, int current, int target, RunId run, String who, String why) {
        publish(dataset, partition, target, run);
        dsl.insertInto(LOG).set(DATASET, dataset.qualifiedName()).set(PARTITION, partition.key())
                .set(DSL.field(DSL.name("from_version"), Integer.class), current)
                .set(DSL.field(DSL.name("to_version"), Integer.class), target)
                .set(DSL.field(DSL.name("requested_by"), String.class), who)
                .set(DSL.field(DSL.name("reason"), String.class), why)
                .set(DSL.field(DSL.name("rolled_back_at"), OffsetDateTime.class), OffsetDateTime.now(ZoneOffset.UTC))
                .execute();
    }
}
