package dev.sluice.config;

import dev.sluice.core.DatasetRef;
import dev.sluice.core.Layer;
import dev.sluice.core.Partition;
import dev.sluice.core.PartitionKind;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A layer table of a pipeline.
 *
 * <p>A Bronze table names its {@code source}; its columns are the contract's plus the ingest
 * metadata. A Silver or Gold table names its {@code input} table and a {@code sql} SELECT whose
 * {@code {input}} stands for the partition's rows of the input (for Silver: the current Bronze
 * load minus quarantined rows) and whose {@code {partition}} is bound to the partition key. The
 * SELECT yields {@code columns} in order.
 *
 * @param layer the layer
 * @param table the table
 * @param source for Bronze: the source name; otherwise null
 * @param input for Silver/Gold: the input table; otherwise null
 * @param partitioned false for a reference snapshot ({@code partition: none})
 * @param key the key columns (rows are unique on them; checksums order by them)
 * @param columns the business columns, in order (Bronze: from the contract)
 * @param sql for Silver/Gold: the SELECT; otherwise empty
 * @param quarantine for Silver: the quarantine rules, first match wins; otherwise empty
 * @param checks the quality checks of this table's gate (Bronze: source, Silver: transform, Gold:
 *     sink), in declaration order
 * @param rollup for a Gold table partitioned more coarsely than its pipeline (e.g. {@code partition:
 *     monthly} in a daily pipeline), that kind; else null. The run of partition D rebuilds the
 *     rollup partition containing D ({@link #outputPartition}) from every published input partition
 *     within it ({@link #inputRange})
 * @param mergeOnKey Silver/Gold {@code write: merge-on-key}: a new version of a partition keeps the
 *     published version's rows whose key the new rows lack (an upsert by {@code key}); false for
 *     {@code overwrite-partition} (the new rows are the partition)
 * @param retention Bronze {@code retention}: how long raw rows are kept at least (a purge never
 *     removes younger ones), or null when not declared
 */
public record TableSpec(Layer layer, DatasetRef table, @Nullable String source, @Nullable DatasetRef input,
        boolean partitioned, List<String> key, List<ColumnSpec> columns, String sql,
        List<QuarantineRule> quarantine, List<CheckSpec> checks, @Nullable PartitionKind rollup, boolean mergeOnKey,
        java.time.@Nullable Period retention) {

    public TableSpec {
        key = List.copyOf(key);
        columns = List.copyOf(columns);
        quarantine = List.copyOf(quarantine);
        checks = List.copyOf(checks);
        if (rollup != null && !partitioned) {
            throw new IllegalArgumentException("a rollup table is partitioned");
        }
    }

    /** A table written by overwriting its partition, no retention declared. */
    public TableSpec(Layer layer, DatasetRef table, @Nullable String source, @Nullable DatasetRef input,
            boolean partitioned, List<String> key, List<ColumnSpec> columns, String sql,
            List<QuarantineRule> quarantine, List<CheckSpec> checks, @Nullable PartitionKind rollup) {
        this(layer, table, source, input, partitioned, key, columns, sql, quarantine, checks, rollup, false, null);
    }

    /** A table partitioned like its pipeline (or a snapshot). */
    public TableSpec(Layer layer, DatasetRef table, @Nullable String source, @Nullable DatasetRef input,
            boolean partitioned, List<String> key, List<ColumnSpec> columns, String sql,
            List<QuarantineRule> quarantine, List<CheckSpec> checks) {
        this(layer, table, source, input, partitioned, key, columns, sql, quarantine, checks, null);
    }

    /** A table without quality checks. */
    public TableSpec(Layer layer, DatasetRef table, @Nullable String source, @Nullable DatasetRef input,
            boolean partitioned, List<String> key, List<ColumnSpec> columns, String sql, List<QuarantineRule> quarantine) {
        this(layer, table, source, input, partitioned, key, columns, sql, quarantine, List.of());
    }

    /** True for a table partitioned more coarsely than its pipeline ({@link #rollup()} is set). */
    public boolean isRollup() {
        return rollup != null;
    }

    /**
     * The partition of this table that a run of {@code run} writes: {@link Partition#NONE} for a
     * snapshot, the partition of {@link #rollup()} containing {@code run}'s nominal start (UTC) for
     * a rollup (a key already of that kind is itself), else {@code run}.
     */
    public Partition outputPartition(Partition run) {
        if (!partitioned) {
            return Partition.NONE;
        }
        if (rollup == null || run.kind().filter(k -> k == rollup).isPresent()) {
            return run;
        }
        LocalDateTime start = run.nominalStart();
        if (start == null) {
            throw new IllegalArgumentException("partition " + run + " has no time to roll up into a " + rollup.id() + " partition");
        }
        return rollup.containing(start.atZone(ZoneOffset.UTC));
    }

    /**
     * The first and last key (inclusive) of the {@code inputKind} partitions inside rollup partition
     * {@code out} (UTC): e.g. {@code 2001-02-01} and {@code 2001-02-28} for month {@code 2001-02}.
     */
    public static Partition[] inputRange(Partition out, PartitionKind inputKind) {
        LocalDateTime start = Objects.requireNonNull(out.nominalStart(), "a rollup partition has a start");
        LocalDateTime end = Objects.requireNonNull(out.nominalEnd(), "a rollup partition has an end");
        return new Partition[] {inputKind.containing(start.atZone(ZoneOffset.UTC)),
                inputKind.containing(end.minusNanos(1).atZone(ZoneOffset.UTC))};
    }

    /** The input table of a Silver/Gold table. */
    public Optional<DatasetRef> inputTable() {
        return Optional.ofNullable(input);
    }

    /**
     * True when the table has a quality gate: declared checks, or quarantine rules whose share the
     * gate judges. Such a table's new version is published by its gate.
     */
    public boolean hasGate() {
        return !checks.isEmpty() || quarantine.stream().anyMatch(r -> r.maxShare() != null);
    }

    /** The step name of this table's job step, e.g. {@code silver.flights}. */
    public String stepName() {
        return table.qualifiedName();
    }
}
