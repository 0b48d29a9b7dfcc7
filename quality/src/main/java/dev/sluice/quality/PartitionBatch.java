package dev.sluice.quality;

import dev.sluice.core.Partition;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Many partitions of one dataset that a gate judges in one pass (a backfill wave): where they live,
 * the columns judged, and per partition the condition selecting exactly its rows. Each layer engine
 * hands its gates its own kind:
 * <ul>
 *   <li>{@link JdbcQueries}, the warehouse engine's: one JDBC query per member
 *       ({@code SELECT columns FROM from WHERE condition}), so the database can use its partition
 *       index for each;</li>
 *   <li>{@link TableSnapshot}, the lakehouse engine's: an Iceberg table of a lakehouse catalog at
 *       one snapshot, each member a filter over it, read in one query.</li>
 * </ul>
 * Immutable values; thread-safe.
 */
public sealed interface PartitionBatch permits PartitionBatch.JdbcQueries, PartitionBatch.TableSnapshot {

    /** The columns judged, in order (as the single-partition read returns them). */
    List<String> columns();

    /** The column among {@link #columns()} holding each row's partition key (e.g. {@code _partition}). */
    String partitionColumn();

    /** A column identifying rows for {@link CheckResult#unexpectedRowIds()}, or null. */
    @Nullable String rowIdColumn();

    /** The partitions judged; no partition twice. */
    List<Member> members();

    /**
     * One partition of the batch.
     *
     * @param partition the partition
     * @param condition the SQL condition selecting exactly its rows (over {@link JdbcQueries#from()},
     *     or a Spark SQL condition over {@link TableSnapshot#table()})
     * @param nominalEnd the end of its nominal interval, UTC, for freshness; null for a snapshot
     * @param snapshotId for a {@link TableSnapshot} batch, the snapshot this member is read at (a
     *     version staged on a branch of its own), or null for the batch's; null for other batches
     */
    record Member(Partition partition, String condition, @Nullable LocalDateTime nominalEnd, @Nullable Long snapshotId) {
        public Member {
            Objects.requireNonNull(partition, "partition");
            Objects.requireNonNull(condition, "condition");
        }

        /** A member read at the batch's snapshot. */
        public Member(Partition partition, String condition, @Nullable LocalDateTime nominalEnd) {
            this(partition, condition, nominalEnd, null);
        }
    }

    /**
     * The members of a wave read over JDBC from the warehouse.
     *
     * @param jdbcUrl the warehouse JDBC URL ({@code jdbc:h2:} or {@code jdbc:postgresql:})
     * @param user the database user
     * @param password the password; never logged, {@link #toString()} hides it
     * @param from the FROM clause, a table with the alias the conditions use (e.g. {@code bronze.flights_raw b})
     * @param columns see {@link PartitionBatch#columns()}
     * @param partitionColumn see {@link PartitionBatch#partitionColumn()}
     * @param rowIdColumn see {@link PartitionBatch#rowIdColumn()}
     * @param members see {@link PartitionBatch#members()}
     * @throws IllegalArgumentException when a partition appears twice
     */
    record JdbcQueries(String jdbcUrl, String user, String password, String from, List<String> columns,
            String partitionColumn, @Nullable String rowIdColumn, List<Member> members) implements PartitionBatch {

        public JdbcQueries {
            Objects.requireNonNull(jdbcUrl, "jdbcUrl");
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(partitionColumn, "partitionColumn");
            columns = List.copyOf(columns);
            members = distinct(members);
        }

        @Override
        public String toString() {
            return "PartitionBatch[" + jdbcUrl + ", user=" + user + ", password=****, " + members.size() + " partition(s) of " + from + "]";
        }
    }

    /**
     * The members of a wave in an Iceberg table of a lakehouse catalog: what the lakehouse engine
     * hands its gates, read in one query in that catalog's Spark session (a union of one read per
     * snapshot when members name their own, {@link Member#snapshotId()}).
     *
     * @param catalog the lakehouse catalog holding the table
     * @param table the table in Spark SQL (e.g. {@code sluice.silver.flights})
     * @param snapshotId the snapshot to read, or null for the table's current one
     * @param columns see {@link PartitionBatch#columns()}: Spark SQL select expressions, physical
     *     names mapped to the logical ones checks use
     * @param partitionColumn see {@link PartitionBatch#partitionColumn()} (a logical name among the columns)
     * @param rowIdColumn see {@link PartitionBatch#rowIdColumn()}
     * @param members see {@link PartitionBatch#members()}; each condition is Spark SQL over {@code table}
     * @throws IllegalArgumentException when a partition appears twice
     */
    record TableSnapshot(dev.sluice.spark.LakehouseCatalog catalog, String table, @Nullable Long snapshotId, List<String> columns,
            String partitionColumn, @Nullable String rowIdColumn, List<Member> members) implements PartitionBatch {

        public TableSnapshot {
            Objects.requireNonNull(catalog, "catalog");
            Objects.requireNonNull(table, "table");
            Objects.requireNonNull(partitionColumn, "partitionColumn");
            columns = List.copyOf(columns);
            members = distinct(members);
        }
    }

    /** {@code members} as an immutable list, refused when a partition appears twice. */
    private static List<Member> distinct(List<Member> members) {
        List<Member> copy = List.copyOf(members);
        if (copy.stream().map(Member::partition).distinct().count() != copy.size()) {
            throw new IllegalArgumentException("a partition appears twice in the batch");
        }
        return copy;
    }
}
