package dev.sluice.batch.engine.warehouse;

import dev.sluice.batch.bronze.LandedFileRepository;
import dev.sluice.batch.contract.SchemaDriftRepository;
import dev.sluice.batch.engine.control.InputPartitions;
import dev.sluice.batch.warehouse.LayerTables;
import dev.sluice.config.ColumnSpec;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.SourceSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.Layer;
import dev.sluice.core.Partition;
import java.util.List;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.SelectJoinStep;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

/**
 * The input rows of one Silver/Gold table's partition, as SQL over the input table with alias
 * {@code b}: for Silver over Bronze, the partition's current load (quarantined rows included);
 * otherwise the input's published rows. A rollup reads every input partition inside its rollup
 * partition. Thread-safe.
 */
final class LayerInput {

    private final DSLContext dsl;
    private final PipelineSpec spec;
    private final TableSpec table;
    private final TableSpec input;

    /**
     * @throws IllegalArgumentException when {@code table} names no input table of {@code spec}
     */
    LayerInput(DSLContext dsl, PipelineSpec spec, TableSpec table) {
        this.dsl = dsl;
        this.spec = spec;
        this.table = table;
        this.input = spec.table(table.inputTable().orElseThrow())
                .orElseThrow(() -> new IllegalArgumentException("no input table for " + table.table()));
    }

    /** The input table's spec. */
    TableSpec spec() {
        return input;
    }

    /** True when the input is a Bronze table. */
    boolean isBronze() {
        return input.layer() == Layer.BRONZE;
    }

    /** The input table, as {@code b}. */
    Table<?> table() {
        return LayerTables.table(input.table()).as("b");
    }

    /** Rows of the partition's input. */
    long count(Partition partition) {
        return dsl.fetchCount(DSL.selectOne().from(table()).where(condition(partition)));
    }

    /**
     * The input partitions a run of {@code partition} reads: its own (a snapshot input: none), or
     * for a rollup every input partition inside the rollup partition, as first and last key.
     */
    Partition[] partitions(Partition partition) {
        return InputPartitions.of(spec, table, input, partition);
    }

    /** The input partitions inside rollup partition {@code out}, as first and last key. */
    Partition[] range(Partition out) {
        return TableSpec.inputRange(out, spec.partitionKind());
    }

    /** The input rows of a run of {@code partition}: its input partitions (of Bronze: the current load). */
    Condition condition(Partition partition) {
        Partition[] range = partitions(partition);
        Field<String> key = DSL.field(DSL.name("b", "_partition"), String.class);
        Condition c = range[0].equals(range[1]) ? key.eq(range[0].key()) : key.between(range[0].key(), range[1].key());
        if (isBronze()) {
            c = c.and(LandedFileRepository.isCurrent(input.table().qualifiedName(), "b"));
        }
        return c;
    }

    /**
     * What {@code {input}} selects from: for Silver over a source with PII policies, the Bronze
     * columns with PII hashed, masked or dropped; otherwise every column.
     */
    SelectJoinStep<?> select() {
        SourceSpec source = source();
        if (source != null) {
            PiiProjection pii = new PiiProjection(dsl.dialect(), source, spec.piiKeys());
            if (pii.transforms()) {
                List<ColumnSpec> evolved = new SchemaDriftRepository(dsl).evolvedColumns(spec.name(), source);
                return dsl.select(pii.fields(LayerTables.BRONZE_METADATA, evolved)).from(table());
            }
        }
        return dsl.select(DSL.asterisk()).from(table());
    }

    /** The source of a Bronze input table, or null when the input is not Bronze. */
    @Nullable SourceSpec source() {
        return isBronze() && input.source() != null ? spec.source(input.source()).orElse(null) : null;
    }
}
