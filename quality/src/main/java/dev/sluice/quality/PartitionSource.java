package dev.sluice.quality;

import java.time.LocalDateTime;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Where a gate reads the one partition it judges. Each layer engine hands its gates its own kind:
 * <ul>
 *   <li>{@link JdbcQuery}, the warehouse engine's: a SELECT over JDBC that returns exactly the
 *       partition's rows;</li>
 *   <li>{@link TableSnapshot}, the lakehouse engine's: an Iceberg table of a lakehouse catalog at
 *       one snapshot, filtered to the partition.</li>
 * </ul>
 * Immutable values; thread-safe.
 */
public sealed interface PartitionSource permits PartitionSource.JdbcQuery, PartitionSource.TableSnapshot {

    /**
     * A column identifying rows for {@link CheckResult#unexpectedRowIds()} (e.g. {@code _source_pos}),
     * or null.
     */
    @Nullable String rowIdColumn();

    /**
     * The end of the partition's nominal interval, UTC (daily D: D+1 00:00), for freshness; null for
     * a partition without time (a reference snapshot).
     */
    @Nullable LocalDateTime nominalEnd();

    /**
     * A JDBC query over the warehouse that selects exactly the partition (e.g.
     * {@code SELECT * FROM silver.flights WHERE _partition = '2001-02-22'}).
     *
     * @param jdbcUrl the warehouse JDBC URL ({@code jdbc:h2:} or {@code jdbc:postgresql:})
     * @param user the database user
     * @param password the password; never logged, {@link #toString()} hides it
     * @param query the SELECT of the partition's rows
     * @param rowIdColumn see {@link PartitionSource#rowIdColumn()}
     * @param nominalEnd see {@link PartitionSource#nominalEnd()}
     */
    record JdbcQuery(String jdbcUrl, String user, String password, String query, @Nullable String rowIdColumn,
            @Nullable LocalDateTime nominalEnd) implements PartitionSource {

        public JdbcQuery {
            Objects.requireNonNull(jdbcUrl, "jdbcUrl");
            Objects.requireNonNull(query, "query");
        }

        @Override
        public String toString() {
            return "PartitionSource[" + jdbcUrl + ", user=" + user + ", password=****, query=" + query + "]";
        }
    }

    /**
     * An Iceberg table of a lakehouse catalog read at one snapshot, restricted to the partition:
     * what the lakehouse engine hands its gates. Read in that catalog's Spark session
     * ({@link dev.sluice.spark.SparkSessions#lakehouse}).
     *
     * @param catalog the lakehouse catalog holding the table
     * @param table the table in Spark SQL (e.g. {@code sluice.silver.flights})
     * @param snapshotId the snapshot to read, or null for the table's current one
     * @param partitionFilter a Spark SQL condition over the table's columns selecting exactly the
     *     partition's rows (e.g. {@code _sluice_partition = '2001-02-22'})
     * @param columns the Spark SQL select list the gate judges, physical names mapped to the logical
     *     ones checks use (e.g. {@code `_sluice_partition` AS `_partition`}); not empty
     * @param rowIdColumn see {@link PartitionSource#rowIdColumn()}
     * @param nominalEnd see {@link PartitionSource#nominalEnd()}
     */
    record TableSnapshot(dev.sluice.spark.LakehouseCatalog catalog, String table, @Nullable Long snapshotId, String partitionFilter,
            java.util.List<String> columns, @Nullable String rowIdColumn, @Nullable LocalDateTime nominalEnd) implements PartitionSource {

        public TableSnapshot {
            Objects.requireNonNull(catalog, "catalog");
            Objects.requireNonNull(table, "table");
            Objects.requireNonNull(partitionFilter, "partitionFilter");
            columns = java.util.List.copyOf(columns);
            if (columns.isEmpty()) {
                throw new IllegalArgumentException("a table snapshot source selects at least one column");
            }
        }
    }
}
