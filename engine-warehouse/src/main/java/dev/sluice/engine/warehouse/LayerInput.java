package dev.sluice.engine.warehouse;

import dev.sluice.engine.LayerColumns;
import dev.sluice.control.landing.LandedFileRepository;
import dev.sluice.control.drift.SchemaDriftRepository;
import dev.sluice.control.version.InputPartitions;
import dev.sluice.control.version.PartitionVersions;
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

    /**
     * The input table, as {@code b}: a Bronze table itself; a Silver/Gold input's view (its
     * published rows), or its versions table when the run reads its own partition of it
     * ({@link #readsOwnPartition}), at the version {@link #condition} looks up: H2 joins the view
     * with {@code sluice.published_partition} row by row, which made a Gold table's input count
     * and build about twice as slow (a flights day: 14-48 against 2-10 ms per count, 54 against
     * 28 ms per route_daily build, measured 2026-12-05).
     */
    Table<?> table() {
        return LayerTables.table(readsOwnPartition() ? LayerTables.versions(input.table()) : input.table()).as("b");
    }

    /**
     * True when the input is a partitioned Silver/Gold table, a run reads only its own partition of
     * it (not a rollup), and the pipeline keeps at least two versions. That partition is published
     * by runs of the same partition, one at a time, or by {@code sluice rollback}, which prunes
     * nothing; with two versions kept, even one publication by another pipeline declaring the same
     * dataset (refused as tables are created, once that pipeline has written a version, but two
     * pipelines' first runs may race) cannot prune the version the run reads. A
     * rollup's or a reference snapshot's input partitions are published by other runs meanwhile,
     * so they are read through the view, each statement at the version then published.
     */
    private boolean readsOwnPartition() {
        return !isBronze() && input.partitioned() && !table.isRollup() && spec.keepVersions() >= 2;
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

    /**
     * The input rows of a run of {@code partition}: its input partitions (of Bronze: the current
     * load; of its own partition of a Silver/Gold input, the version published now, no rows when
     * none is; else the published rows the view shows).
     */
    Condition condition(Partition partition) {
        Partition[] range = partitions(partition);
        Field<String> key = DSL.field(DSL.name("b", "_partition"), String.class);
        Condition c = range[0].equals(range[1]) ? key.eq(range[0].key()) : key.between(range[0].key(), range[1].key());
        if (isBronze()) {
            // the partition's current loads looked up once, as literals, not an EXISTS on sluice.landed_file per row: every
            // statement of the write reads the same loads, and H2 does less per row (a flights day's input count on a settled
            // database 194-212 → 26-32 ms; re-running 20 days, the write's statements 18.8 → 16.6 s, the count 71 → 46 ms a
            // day; a first backfill, its Bronze just written, showed no difference within its noise; 2026-12-05)
            return c.and(range[0].equals(range[1])
                    ? new LandedFileRepository(dsl).currentLoadOf(input.table().qualifiedName(), range[0], "b")
                    : LandedFileRepository.isCurrent(input.table().qualifiedName(), "b"));
        }
        if (readsOwnPartition()) {
            Integer published = new PartitionVersions(dsl).published(input.table(), range[0]).orElse(null);
            return published == null ? DSL.falseCondition()
                    : c.and(DSL.field(DSL.name("b", "_version"), Integer.class).eq(DSL.inline(published)));
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
                return dsl.select(pii.fields(LayerColumns.BRONZE_METADATA, evolved)).from(table());
            }
        }
        if (readsOwnPartition()) {
            // the view's columns: the versions table keeps a column the spec no longer declares
            return dsl.select(LayerTables.viewColumns(input).stream().<Field<?>>map(n -> DSL.field(DSL.name("b").append(n))).toList())
                    .from(table());
        }
        return dsl.select(DSL.asterisk()).from(table());
    }

    /** The source of a Bronze input table, or null when the input is not Bronze. */
    @Nullable SourceSpec source() {
        return isBronze() && input.source() != null ? spec.source(input.source()).orElse(null) : null;
    }
}
