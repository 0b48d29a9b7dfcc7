package dev.sluice.engine;

import dev.sluice.config.ColumnSpec;
import dev.sluice.config.ColumnType;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * The column list of a Bronze insert and the metadata values shared by every row of one step
 * execution.
 *
 * @param table the Bronze table
 * @param names the contract's columns, then {@link LayerColumns#BRONZE_METADATA}
 * @param types the contract's column types, in the order of {@code names}
 * @param partition the value of {@code _partition}
 * @param run the value of {@code _run_id}
 * @param ingestedAt the value of {@code _ingested_at}
 */
public record BronzeColumns(DatasetRef table, List<String> names, List<ColumnType> types, Partition partition, RunId run,
        OffsetDateTime ingestedAt) {

    public BronzeColumns {
        names = List.copyOf(names);
        types = List.copyOf(types);
        if (names.size() != types.size() + LayerColumns.BRONZE_METADATA.size()) {
            throw new IllegalArgumentException(names.size() + " column names for " + types.size() + " contract column types");
        }
    }

    /** The columns of {@code table} for {@code contract} columns. */
    public static BronzeColumns of(DatasetRef table, List<ColumnSpec> contract, Partition partition, RunId run,
            OffsetDateTime ingestedAt) {
        List<String> names = new ArrayList<>();
        contract.forEach(c -> names.add(c.name()));
        names.addAll(LayerColumns.BRONZE_METADATA);
        return new BronzeColumns(table, names, contract.stream().map(ColumnSpec::type).toList(), partition, run, ingestedAt);
    }

    /** The number of contract (business) columns. */
    public int businessColumns() {
        return types.size();
    }
}
