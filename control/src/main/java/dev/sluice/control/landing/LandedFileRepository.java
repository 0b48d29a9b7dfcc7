package dev.sluice.control.landing;

import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * {@code sluice.landed_file}: which file versions are in Bronze, and which load of each source file
 * is current for a partition. A file loads once per (Bronze table, partition, source, sha256): a
 * file of a source partitioned by a column loads once for each partition. Statements
 * join the caller's Spring transaction when there is one. Thread-safe.
 */
public final class LandedFileRepository {

    /** Status of a load that has not reached the end of its file. */
    public static final String LOADING = "LOADING";
    /** Status of a complete load. */
    public static final String LOADED = "LOADED";

    /** {@code sluice.landed_file}: every landed file loaded into Bronze, for purge and read-only queries. */
    public static final Table<?> LANDED_FILES = DSL.table(DSL.name("sluice", "landed_file"));
    static final Table<?> T = LANDED_FILES;
    static final Field<String> PIPELINE = DSL.field(DSL.name("pipeline"), String.class);
    static final Field<String> TABLE = DSL.field(DSL.name("bronze_table"), String.class);
    static final Field<String> PARTITION = DSL.field(DSL.name("partition_key"), String.class);
    static final Field<String> SOURCE = DSL.field(DSL.name("source"), String.class);
    static final Field<String> SHA = DSL.field(DSL.name("sha256"), String.class);
    static final Field<Long> SIZE = DSL.field(DSL.name("size_bytes"), Long.class);
    static final Field<String> RUN = DSL.field(DSL.name("run_id"), String.class);
    static final Field<String> STATUS = DSL.field(DSL.name("status"), String.class);
    static final Field<Long> ROWS = DSL.field(DSL.name("rows_loaded"), Long.class);
    static final Field<Boolean> CURRENT = DSL.field(DSL.name("current_load"), Boolean.class);
    static final Field<OffsetDateTime> LOADED_AT = DSL.field(DSL.name("loaded_at"), OffsetDateTime.class);

    private final DSLContext dsl;

    public LandedFileRepository(DSLContext dsl) {
        this.dsl = dsl;
    }

    /** A file's recorded load: (status, run id), or empty when it was never seen. */
    public Optional<Record> find(String bronzeTable, Partition partition, LandedFile file) {
        return dsl.select(STATUS, RUN, ROWS).from(T)
                .where(TABLE.eq(bronzeTable), PARTITION.eq(partition.key()), SOURCE.eq(file.source()), SHA.eq(file.sha256()))
                .fetchOptional().map(r -> (Record) r);
    }

    /**
     * Another version of {@code file}'s source that {@code run} loaded (wholly or in part) before:
     * its rows carry the same (source, run id) as the new version's would and could not be told
     * apart from them. Empty when there is none.
     *
     * @return (sha256, status) of that version
     */
    public Optional<Record> otherVersionOfRun(String bronzeTable, Partition partition, LandedFile file, RunId run) {
        return dsl.select(SHA, STATUS).from(T).where(TABLE.eq(bronzeTable), PARTITION.eq(partition.key()), SOURCE.eq(file.source()),
                        RUN.eq(run.toString()), SHA.ne(file.sha256()))
                .limit(1).fetchOptional().map(r -> (Record) r);
    }

    /** Records that {@code run} starts loading {@code file} (or takes over a load a dead run left LOADING). */
    public void startLoad(String pipeline, String bronzeTable, Partition partition, LandedFile file, RunId run) {
        int updated = dsl.update(T).set(RUN, run.toString()).set(LOADED_AT, now())
                .where(TABLE.eq(bronzeTable), PARTITION.eq(partition.key()), SOURCE.eq(file.source()),
                        SHA.eq(file.sha256()), STATUS.eq(LOADING))
                .execute();
        if (updated == 0) {
            dsl.insertInto(T).set(PIPELINE, pipeline).set(TABLE, bronzeTable).set(PARTITION, partition.key())
                    .set(SOURCE, file.source()).set(SHA, file.sha256()).set(SIZE, file.sizeBytes())
                    .set(RUN, run.toString()).set(STATUS, LOADING).set(ROWS, 0L).set(CURRENT, false)
                    .set(LOADED_AT, now()).execute();
        }
    }

    /** Marks a file's load complete and makes it the current load of its source for the partition. */
    public void finishLoad(String bronzeTable, Partition partition, LandedFile file) {
        dsl.update(T).set(STATUS, LOADED).set(ROWS, file.rows()).set(LOADED_AT, now())
                .where(TABLE.eq(bronzeTable), PARTITION.eq(partition.key()), SOURCE.eq(file.source()),
                        SHA.eq(file.sha256())).execute();
        makeCurrent(bronzeTable, partition, file);
    }

    /** Makes an already loaded file version the current load of its source for the partition. */
    public void makeCurrent(String bronzeTable, Partition partition, LandedFile file) {
        dsl.update(T).set(CURRENT, SHA.eq(file.sha256()))
                .where(TABLE.eq(bronzeTable), PARTITION.eq(partition.key()), SOURCE.eq(file.source()),
                        STATUS.eq(LOADED))
                .execute();
    }

    /** Retires the current loads of files that are no longer in the partition's landing path. */
    public void retireMissing(String bronzeTable, Partition partition, Collection<String> presentSources) {
        var where = DSL.and(TABLE.eq(bronzeTable), PARTITION.eq(partition.key()), CURRENT.isTrue());
        if (!presentSources.isEmpty()) {
            where = where.and(SOURCE.notIn(presentSources));
        }
        dsl.update(T).set(CURRENT, false).where(where).execute();
    }

    /**
     * The Bronze rows of {@code partition}'s current load, as a condition on literal values: the
     * (source, run) of each current landed file. The same rows as {@link #isCurrent}, without a
     * lookup per row (a gate reads a whole partition with it); FALSE when nothing is current.
     */
    public Condition currentLoadOf(String bronzeTable, Partition partition, String alias) {
        List<CurrentLoad> current = currentLoads(bronzeTable, partition);
        if (current.isEmpty()) {
            return DSL.falseCondition();
        }
        Field<String> source = DSL.field(DSL.name(alias, "_source"), String.class);
        Field<String> run = DSL.field(DSL.name(alias, "_run_id"), String.class);
        return DSL.or(current.stream().map(r -> source.eq(DSL.inline(r.source())).and(run.eq(DSL.inline(r.run())))).toList());
    }

    /**
     * One current load of a Bronze partition: the file and the run whose rows of it Silver reads.
     *
     * @param source the file as recorded in {@code _source}
     * @param run the run id recorded in {@code _run_id}
     */
    public record CurrentLoad(String source, String run) {
    }

    /** The current loads of a Bronze partition, by source; empty when nothing is current. */
    public List<CurrentLoad> currentLoads(String bronzeTable, Partition partition) {
        return dsl.select(DSL.field(DSL.name("source"), String.class), RUN).from(T)
                .where(TABLE.eq(bronzeTable), PARTITION.eq(partition.key()), CURRENT.isTrue())
                .orderBy(DSL.field(DSL.name("source"))).fetch(r -> new CurrentLoad(r.value1(), r.value2()));
    }

    /**
     * A condition on a Bronze row (table alias {@code alias}) that it belongs to a current load of
     * its partition: what Silver reads.
     */
    public static Condition isCurrent(String bronzeTable, String alias) {
        return DSL.exists(DSL.selectOne().from(T.as("l")).where(
                DSL.field(DSL.name("l", "bronze_table")).eq(bronzeTable),
                DSL.field(DSL.name("l", "partition_key")).eq(DSL.field(DSL.name(alias, "_partition"))),
                DSL.field(DSL.name("l", "source")).eq(DSL.field(DSL.name(alias, "_source"))),
                DSL.field(DSL.name("l", "run_id")).eq(DSL.field(DSL.name(alias, "_run_id"))),
                DSL.field(DSL.name("l", "current_load"), Boolean.class).isTrue()));
    }

    private static OffsetDateTime now() {
        return OffsetDateTime.now(ZoneOffset.UTC);
    }
}
