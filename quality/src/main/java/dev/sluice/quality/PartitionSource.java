package dev.sluice.quality;

import java.time.LocalDateTime;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Where a gate reads the partition it judges: a JDBC query over the warehouse that selects exactly
 * that partition (e.g. {@code SELECT * FROM silver.flights WHERE _partition = '2001-02-22'}).
 *
 * @param jdbcUrl the warehouse JDBC URL ({@code jdbc:h2:} or {@code jdbc:postgresql:})
 * @param user the database user
 * @param password the password; never logged, {@link #toString()} hides it
 * @param query the SELECT of the partition's rows
 * @param rowIdColumn a column identifying rows for {@link CheckResult#unexpectedRowIds()} (e.g.
 *     {@code _source_pos}), or null
 * @param nominalEnd the end of the partition's nominal interval, UTC (daily D: D+1 00:00), for
 *     freshness; null for a partition without time (a reference snapshot)
 */
public record PartitionSource(String jdbcUrl, String user, String password, String query, @Nullable String rowIdColumn,
        @Nullable LocalDateTime nominalEnd) {

    public PartitionSource {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        Objects.requireNonNull(query, "query");
    }

    @Override
    public String toString() {
        return "PartitionSource[" + jdbcUrl + ", user=" + user + ", password=****, query=" + query + "]";
    }
}
