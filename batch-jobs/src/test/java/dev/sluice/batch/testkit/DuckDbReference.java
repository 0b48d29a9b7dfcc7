package dev.sluice.batch.testkit;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * An independent engine's answer: DuckDB computes {@code gold.airport_daily_delays} for one date
 * straight from the original flights-3m.parquet and airports.csv by the rules of the flights
 * pipeline (quarantine delay outside [-120, 2880], distance ≤ 0 and unknown airports; collapse exact
 * duplicates; aggregate per origin). Rows ordered by origin.
 */
public final class DuckDbReference {

    /** One row of gold.airport_daily_delays. */
    public record AirportDay(String origin, long flights, long delayed15, double avgDelayMin, long maxDelayMin,
            long totalDistanceMi) {
    }

    private DuckDbReference() {
    }

    public static List<AirportDay> airportDailyDelays(Path flights, Path airports, LocalDate day) throws SQLException {
        String sql = """
                WITH ap AS (SELECT iata FROM read_csv(?, header = true, all_varchar = true)),
                raw AS (SELECT * FROM read_parquet(?) WHERE CAST("date" AS DATE) = ?),
                good AS (
                  SELECT DISTINCT "date", delay, distance, origin, destination FROM raw
                  WHERE delay BETWEEN -120 AND 2880 AND distance > 0
                    AND origin IN (SELECT iata FROM ap) AND destination IN (SELECT iata FROM ap))
                SELECT origin, COUNT(*), SUM(CASE WHEN delay >= 15 THEN 1 ELSE 0 END),
                       CAST(SUM(delay) AS DOUBLE) / COUNT(*), MAX(delay), SUM(distance)
                FROM good GROUP BY origin ORDER BY origin
                """;
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
             PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, airports.toString());
            ps.setString(2, flights.toString());
            ps.setObject(3, day);
            List<AirportDay> rows = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(new AirportDay(rs.getString(1), rs.getLong(2), rs.getLong(3), rs.getDouble(4),
                            rs.getLong(5), rs.getLong(6)));
                }
            }
            return rows;
        }
    }

    /** Rows of the original file on {@code day}, before any rule. */
    public static long rawRows(Path flights, LocalDate day) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
             PreparedStatement ps = c.prepareStatement(
                     "SELECT COUNT(*) FROM read_parquet(?) WHERE CAST(\"date\" AS DATE) = ?")) {
            ps.setString(1, flights.toString());
            ps.setObject(2, day);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /**
     * Rows of {@code day} in the original file that have an exact duplicate (every row of each
     * group of identical rows counts), as the source gate's uniqueness check counts them.
     */
    public static long duplicatedRows(Path flights, LocalDate day) throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
             PreparedStatement ps = c.prepareStatement("SELECT COALESCE(SUM(n), 0) FROM (SELECT COUNT(*) n FROM read_parquet(?)"
                     + " WHERE CAST(\"date\" AS DATE) = ? GROUP BY \"date\", delay, distance, origin, destination HAVING COUNT(*) > 1)")) {
            ps.setString(1, flights.toString());
            ps.setObject(2, day);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
