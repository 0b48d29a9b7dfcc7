package dev.sluice.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a PostgreSQL database's server time went during a measured phase, from the
 * {@code pg_stat_statements} extension (PostgreSQL 14 docs, F.32): per normalised statement its
 * calls, rows and total execution time (planning time is not counted: {@code track_planning} is
 * off by default, and left so). The server must be started with
 * {@code shared_preload_libraries=pg_stat_statements}; {@link #reset} creates the extension in the
 * database if it is missing. Utility statements ({@code COPY}, {@code COMMIT}, {@code SET}) are
 * counted too ({@code pg_stat_statements.track_utility}, on by default): a {@code COMMIT}'s time
 * holds its wait for the WAL flush. Time spent between statements (parsing the protocol, the
 * network) is in no row; the statements of a measured phase's setup (creating tables, loading a
 * reference table) are counted with it. Not thread-safe.
 */
final class PostgresStatements {

    /** Characters of a statement's text kept in a report row. */
    private static final int TEXT = 160;

    private PostgresStatements() {
    }

    /**
     * One normalised statement.
     *
     * @param text its text, constants replaced by {@code $n}, whitespace folded, cut at 160 characters
     * @param calls times it ran
     * @param rows rows it returned or changed, summed
     * @param totalMs its execution time, ms
     * @param share {@code totalMs} over the sum of every row's, 0..1
     */
    record Row(String text, long calls, long rows, double totalMs, double share) {
    }

    /** Forgets every statement counted so far in the database at {@code url} (user and password postgres). */
    static void reset(String url) throws SQLException {
        try (Connection c = DriverManager.getConnection(url, "postgres", "postgres"); Statement s = c.createStatement()) {
            s.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
            s.execute("SELECT pg_stat_statements_reset()");
        }
    }

    /**
     * The {@code limit} statements of the database at {@code url} that took the most time since
     * {@link #reset}, most first; the statements this class runs are left out.
     */
    static List<Row> top(String url, int limit) throws SQLException {
        String sql = "WITH s AS (SELECT query, calls, rows, total_exec_time AS ms FROM pg_stat_statements "
                + "WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND query NOT LIKE '%pg_stat_statements%') "
                + "SELECT query, calls, rows, ms, ms / NULLIF(SUM(ms) OVER (), 0) AS share FROM s ORDER BY ms DESC LIMIT " + limit;
        List<Row> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(url, "postgres", "postgres"); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                String text = rs.getString(1).replaceAll("\\s+", " ").strip();
                out.add(new Row(text.length() > TEXT ? text.substring(0, TEXT) + "…" : text, rs.getLong(2), rs.getLong(3),
                        Math.round(rs.getDouble(4) * 10) / 10.0, Math.round(rs.getDouble(5) * 1_000) / 1_000.0));
            }
        }
        return out;
    }
}
