package dev.sluice.batch.bronze;

import dev.sluice.config.ColumnSpec;
import dev.sluice.config.SourceSpec;
import dev.sluice.core.Partition;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;

/**
 * Which rows of a landed file belong to a partition. A source whose path holds
 * {@code {partition}} keeps every row. A source partitioned by a column keeps the rows whose value
 * falls on the partition's day (a timestamp by its date: JSON epoch times are read as UTC) and the
 * rows whose value is missing or unreadable, which Silver quarantines as
 * {@code partition_value_missing}. Immutable and thread-safe.
 */
final class PartitionFilter {

    private static final PartitionFilter ALL = new PartitionFilter(-1, null);

    private final int index;
    private final LocalDate day;

    private PartitionFilter(int index, LocalDate day) {
        this.index = index;
        this.day = day;
    }

    /**
     * @param columns the columns the reader returns, in order
     * @throws IllegalArgumentException when the partition column is not among {@code columns}
     */
    static PartitionFilter of(SourceSpec source, List<ColumnSpec> columns, Partition partition) {
        if (source.partitionColumnName().isEmpty() || partition.equals(Partition.NONE)) {
            return ALL;
        }
        String name = source.partitionColumnName().get();
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equals(name)) {
                return new PartitionFilter(i, partition.date());
            }
        }
        throw new IllegalArgumentException("partition column " + name + " is not read from source " + source.name());
    }

    boolean accepts(SourceRow row) {
        if (index < 0) {
            return true;
        }
        Object v = row.values()[index];
        if (v instanceof LocalDate d) {
            return d.equals(day);
        }
        if (v instanceof LocalDateTime t) {
            return t.toLocalDate().equals(day);
        }
        return v == null;
    }
}
