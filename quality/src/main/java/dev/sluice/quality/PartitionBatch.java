package dev.sluice.quality;

import dev.sluice.core.Partition;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Many partitions of one dataset that a gate judges in one pass (a backfill): the table they live
 * in, the columns judged, and per partition the SQL condition selecting exactly its rows. Each
 * member is read by its own query ({@code SELECT columns FROM from WHERE condition}), so the
 * database can use its partition index for each.
 *
 * @param jdbcUrl the warehouse JDBC URL ({@code jdbc:h2:} or {@code jdbc:postgresql:})
 * @param user the database user
 * @param password the password; never logged, {@link #toString()} hides it
 * @param from the FROM clause, a table with the alias the conditions use (e.g. {@code bronze.flights_raw b})
 * @param columns the columns judged, in order (as the single-partition query returns them)
 * @param partitionColumn the column among {@code columns} holding each row's partition key (e.g. {@code _partition})
 * @param rowIdColumn a column identifying rows for {@link CheckResult#unexpectedRowIds()}, or null
 * @param members the partitions judged; no partition twice
 */
public record PartitionBatch(String jdbcUrl, String user, String password, String from, List<String> columns,
        String partitionColumn, @Nullable String rowIdColumn, List<Member> members) {

    /**
     * One partition of the batch.
     *
     * @param partition the partition
     * @param condition the SQL condition over {@code from} selecting exactly its rows
     * @param nominalEnd the end of its nominal interval, UTC, for freshness; null for a snapshot
     */
    public record Member(Partition partition, String condition, @Nullable LocalDateTime nominalEnd) {
        public Member {
            Objects.requireNonNull(partition, "partition");
            Objects.requireNonNull(condition, "condition");
        }
    }

    public PartitionBatch {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(partitionColumn, "partitionColumn");
        columns = List.copyOf(columns);
        members = List.copyOf(members);
        if (members.stream().map(Member::partition).distinct().count() != members.size()) {
            throw new IllegalArgumentException("a partition appears twice in the batch");
        }
    }

    @Override
    public String toString() {
        return "PartitionBatch[" + jdbcUrl + ", user=" + user + ", password=****, " + members.size() + " partition(s) of " + from + "]";
    }
}
