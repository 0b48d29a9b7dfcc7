package dev.sluice.quality;

import dev.sluice.core.Partition;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Many partitions of one dataset that a gate judges in one pass (a backfill): one JDBC query over
 * the warehouse selecting the rows of all of them, with the column that tells them apart.
 *
 * @param jdbcUrl the warehouse JDBC URL ({@code jdbc:h2:} or {@code jdbc:postgresql:})
 * @param user the database user
 * @param password the password; never logged, {@link #toString()} hides it
 * @param query the SELECT of the rows of every member partition (rows of other partitions must not
 *     appear); it returns {@code partitionColumn}
 * @param partitionColumn the text column holding each row's partition key (e.g. {@code _partition})
 * @param rowIdColumn a column identifying rows for {@link CheckResult#unexpectedRowIds()}, or null
 * @param members the partitions judged, each with its nominal end; no partition twice
 */
public record PartitionBatch(String jdbcUrl, String user, String password, String query, String partitionColumn,
        @Nullable String rowIdColumn, List<Member> members) {

    /**
     * One partition of the batch.
     *
     * @param partition the partition
     * @param nominalEnd the end of its nominal interval, UTC, for freshness; null for a snapshot
     */
    public record Member(Partition partition, @Nullable LocalDateTime nominalEnd) {
        public Member {
            Objects.requireNonNull(partition, "partition");
        }
    }

    public PartitionBatch {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(partitionColumn, "partitionColumn");
        members = List.copyOf(members);
        if (members.stream().map(Member::partition).distinct().count() != members.size()) {
            throw new IllegalArgumentException("a partition appears twice in the batch");
        }
    }

    @Override
    public String toString() {
        return "PartitionBatch[" + jdbcUrl + ", user=" + user + ", password=****, " + members.size() + " partition(s), query=" + query + "]";
    }
}
