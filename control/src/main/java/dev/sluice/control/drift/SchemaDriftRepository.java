package dev.sluice.control.drift;

import dev.sluice.config.ColumnSpec;
import dev.sluice.config.ColumnType;
import dev.sluice.config.SchemaChange;
import dev.sluice.config.SourceSpec;
import dev.sluice.core.BoundedText;
import dev.sluice.core.Partition;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Result;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

/**
 * {@code sluice.schema_drift}: every difference a landed file showed against its contract, and the
 * columns Bronze tables gained by {@code drift: evolve}. Thread-safe.
 */
public final class SchemaDriftRepository {

    /** The table's qualified name, {@code sluice.schema_drift}, for messages. */
    public static final String TABLE_NAME = "sluice.schema_drift";
    private static final Table<?> T = DSL.table(DSL.name("sluice", "schema_drift"));
    private static final Field<String> PIPELINE = DSL.field(DSL.name("pipeline"), String.class);
    private static final Field<String> SOURCE = DSL.field(DSL.name("source"), String.class);
    private static final Field<String> PARTITION = DSL.field(DSL.name("partition_key"), String.class);
    private static final Field<String> CONTRACT = DSL.field(DSL.name("contract"), String.class);
    private static final Field<String> FILE = DSL.field(DSL.name("file"), String.class);
    private static final Field<String> KIND = DSL.field(DSL.name("change_kind"), String.class);
    private static final Field<String> COLUMN = DSL.field(DSL.name("column_name"), String.class);
    private static final Field<String> EXPECTED = DSL.field(DSL.name("expected_type"), String.class);
    private static final Field<String> FOUND = DSL.field(DSL.name("found_type"), String.class);
    private static final Field<String> OUTCOME = DSL.field(DSL.name("outcome"), String.class);
    private static final Field<OffsetDateTime> AT = DSL.field(DSL.name("detected_at"), OffsetDateTime.class);

    /**
     * Characters of a column name a row keeps ({@code column_name VARCHAR(200)}); a file's name may
     * be longer (only a refused or ignored column can be: one drift adds is an identifier).
     */
    static final int MAX_COLUMN_CHARS = 200;
    /** Changes other than {@code EVOLVED} recorded per file. */
    public static final int MAX_RECORDED_CHANGES = 100;

    private final DSLContext dsl;

    public SchemaDriftRepository(DSLContext dsl) {
        this.dsl = dsl;
    }

    /**
     * Records the changes one file of a partition showed: every {@code EVOLVED} change (later loads
     * read the Bronze columns from them) and the first {@value #MAX_RECORDED_CHANGES} others; a
     * file with more (a header of thousands of unknown names) is not copied into the table whole.
     *
     * @return how many changes were not recorded
     */
    public int record(String pipeline, SourceSpec source, Partition partition, String file, List<SchemaChange> changes) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        int others = 0;
        int skipped = 0;
        for (SchemaChange c : changes) {
            if (c.outcome() != SchemaChange.Outcome.EVOLVED && ++others > MAX_RECORDED_CHANGES) {
                skipped++;
                continue;
            }
            dsl.insertInto(T).set(PIPELINE, pipeline).set(SOURCE, source.name()).set(PARTITION, partition.key())
                    .set(CONTRACT, source.contract().label()).set(FILE, BoundedText.cut(file, 1000)).set(KIND, c.kind().name())
                    .set(COLUMN, BoundedText.cut(c.column(), MAX_COLUMN_CHARS)).set(EXPECTED, c.expectedId())
                    .set(FOUND, c.foundId()).set(OUTCOME, c.outcome().name())
                    .set(AT, now).execute();
        }
        return skipped;
    }

    /**
     * The columns a source's Bronze table gained by {@code drift: evolve}, in the order they were
     * first seen; nullable, typed as the file declared them (text when the format has no types).
     */
    public List<ColumnSpec> evolvedColumns(String pipeline, SourceSpec source) {
        Map<String, ColumnSpec> columns = new LinkedHashMap<>();
        for (Record r : dsl.select(COLUMN, FOUND).from(T)
                .where(PIPELINE.eq(pipeline), SOURCE.eq(source.name()), OUTCOME.eq(SchemaChange.Outcome.EVOLVED.name()))
                .orderBy(DSL.field(DSL.name("drift_id"))).fetch()) {
            String name = r.get(COLUMN);
            if (source.contract().columns().stream().noneMatch(c -> c.name().equals(name))) {
                columns.putIfAbsent(name, evolvedColumn(name, r.get(FOUND)));
            }
        }
        return new ArrayList<>(columns.values());
    }

    /**
     * The nullable column drift adds for a file's column: of the type the file declared
     * ({@link SchemaChange#foundId()}, e.g. {@code long} or {@code decimal(12,2)}), text when the
     * format has no types.
     */
    public static ColumnSpec evolvedColumn(String name, @Nullable String foundType) {
        return (foundType == null ? Optional.<ColumnSpec>empty() : ColumnSpec.ofType(name, foundType))
                .orElseGet(() -> new ColumnSpec(name, ColumnType.STRING, true));
    }

    /** Distinct changes of a pipeline: source, contract, change, column, types, outcome, partitions seen, first and last. */
    public Result<?> summary(String pipeline) {
        return dsl.select(SOURCE, CONTRACT, KIND.as("change"), COLUMN.as("column"), EXPECTED.as("contract_type"),
                        FOUND.as("file_type"), OUTCOME, DSL.countDistinct(PARTITION).as("partitions"),
                        DSL.min(PARTITION).as("first"), DSL.max(PARTITION).as("last"))
                .from(T).where(PIPELINE.eq(pipeline))
                .groupBy(SOURCE, CONTRACT, KIND, COLUMN, EXPECTED, FOUND, OUTCOME)
                .orderBy(SOURCE, DSL.min(PARTITION), COLUMN).fetch();
    }
}
