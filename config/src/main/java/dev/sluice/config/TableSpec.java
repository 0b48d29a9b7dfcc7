package dev.sluice.config;

import dev.sluice.core.DatasetRef;
import dev.sluice.core.Layer;
import java.util.List;
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
 */
public record TableSpec(Layer layer, DatasetRef table, @Nullable String source, @Nullable DatasetRef input,
        boolean partitioned, List<String> key, List<ColumnSpec> columns, String sql,
        List<QuarantineRule> quarantine, List<CheckSpec> checks) {

    public TableSpec {
        key = List.copyOf(key);
        columns = List.copyOf(columns);
        quarantine = List.copyOf(quarantine);
        checks = List.copyOf(checks);
    }

    /** A table without quality checks. */
    public TableSpec(Layer layer, DatasetRef table, @Nullable String source, @Nullable DatasetRef input,
            boolean partitioned, List<String> key, List<ColumnSpec> columns, String sql, List<QuarantineRule> quarantine) {
        this(layer, table, source, input, partitioned, key, columns, sql, quarantine, List.of());
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
