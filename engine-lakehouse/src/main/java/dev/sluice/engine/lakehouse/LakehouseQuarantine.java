package dev.sluice.engine.lakehouse;

import dev.sluice.warehouse.meta.QuarantineStatus;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import dev.sluice.warehouse.meta.QuarantineTable;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.InsertValuesStepN;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * The quarantine of one lakehouse Silver/Gold partition in {@code sluice.quarantine} (the control
 * plane): the rows Spark found matching a rule are inserted OPEN in the caller's transaction, the
 * partition's earlier OPEN entries judged again as the warehouse engine does (one whose row is
 * quarantined again is replaced, one whose file is still an input is REPROCESSED, the others
 * SUPERSEDED). Inserts go in multi-row statements of {@value #ROWS_PER_STATEMENT} rows. Thread-safe.
 */
final class LakehouseQuarantine {

    private static final int ROWS_PER_STATEMENT = 500;
    private static final Table<Record> Q = QuarantineTable.TABLE;
    private static final Field<String> STATUS = DSL.field(DSL.name("status"), String.class);
    private static final List<String> COLUMNS = List.of("pipeline", "dataset", "partition_key", "run_id", "source", "source_pos",
            "rule_id", "reason", "record_json", "quarantined_at", "status");

    /**
     * One quarantined input row.
     *
     * @param source its file ({@code _source}), null for a row of a Silver/Gold input
     * @param position its row position in the file ({@code _source_pos}), null likewise
     * @param ruleId the first rule it matched
     * @param reason that rule's reason
     * @param recordJson the row's columns as a JSON object
     */
    record Row(String source, Long position, String ruleId, String reason, String recordJson) {
    }

    private final DSLContext dsl;
    private final PipelineSpec spec;
    private final TableSpec table;

    LakehouseQuarantine(DSLContext dsl, PipelineSpec spec, TableSpec table) {
        this.dsl = dsl;
        this.spec = spec;
        this.table = table;
    }

    /**
     * Replaces the partition's OPEN entries by {@code rows}.
     *
     * @param inputSources the files the partition's input holds now
     * @return the rows quarantined by this run
     */
    long judge(Partition out, RunId run, List<Row> rows, Collection<String> inputSources) {
        Condition ofPartition = DSL.field(DSL.name("pipeline")).eq(spec.name())
                .and(DSL.field(DSL.name("dataset")).eq(table.table().qualifiedName()))
                .and(DSL.field(DSL.name("partition_key")).eq(out.key()));
        dsl.update(Q).set(STATUS, QuarantineStatus.PENDING.name()).where(ofPartition, STATUS.eq(QuarantineStatus.OPEN.name())).execute();
        List<Field<?>> columns = COLUMNS.stream().<Field<?>>map(c -> DSL.field(DSL.name(c))).toList();
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        for (int from = 0; from < rows.size(); from += ROWS_PER_STATEMENT) {
            InsertValuesStepN<Record> insert = dsl.insertInto(Q, columns);
            for (Row r : rows.subList(from, Math.min(rows.size(), from + ROWS_PER_STATEMENT))) {
                insert = insert.values(new ArrayList<>(java.util.Arrays.asList(spec.name(), table.table().qualifiedName(), out.key(),
                        run.toString(), r.source(), r.position(), r.ruleId(), r.reason(), r.recordJson(), now, QuarantineStatus.OPEN.name())));
            }
            insert.execute();
        }
        Table<?> again = Q.as("q2");
        Field<Object> qDataset = DSL.field(DSL.name(Q.getQualifiedName(), DSL.name("dataset")));
        Field<Object> qPartition = DSL.field(DSL.name(Q.getQualifiedName(), DSL.name("partition_key")));
        Field<Object> qSource = DSL.field(DSL.name(Q.getQualifiedName(), DSL.name("source")));
        Field<Object> qPos = DSL.field(DSL.name(Q.getQualifiedName(), DSL.name("source_pos")));
        dsl.deleteFrom(Q).where(ofPartition, STATUS.eq(QuarantineStatus.PENDING.name()), DSL.exists(DSL.selectOne().from(again).where(
                DSL.field(DSL.name("q2", "status")).eq(QuarantineStatus.OPEN.name()),
                DSL.field(DSL.name("q2", "dataset")).eq(qDataset),
                DSL.field(DSL.name("q2", "partition_key")).eq(qPartition),
                DSL.field(DSL.name("q2", "source")).eq(qSource),
                DSL.field(DSL.name("q2", "source_pos")).eq(qPos)))).execute();
        Field<String> source = DSL.field(DSL.name("source"), String.class);
        dsl.update(Q).set(STATUS, inputSources.isEmpty() ? DSL.inline(QuarantineStatus.SUPERSEDED.name())
                        : DSL.when(source.in(inputSources), DSL.inline(QuarantineStatus.REPROCESSED.name())).otherwise(DSL.inline(QuarantineStatus.SUPERSEDED.name())))
                .where(ofPartition, STATUS.eq(QuarantineStatus.PENDING.name())).execute();
        return rows.size();
    }
}
