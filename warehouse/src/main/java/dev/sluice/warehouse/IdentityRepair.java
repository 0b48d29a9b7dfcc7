package dev.sluice.warehouse;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * Moves each identity column of Sluice's own tables in an H2 warehouse past the largest value its
 * table holds, so that the next generated key is free.
 *
 * <p>Why: after processes were killed (SIGKILL) while they wrote, an H2 file database held rows whose
 * identity values its identity generator gave again: a backfill's restart then failed on a duplicate
 * {@code sluice.quality_results(result_id)} (the fault suite's case {@code lake-h2:BACKFILL:252}, CI
 * of 2026-12-05; the cause inside H2 was not found: kills of a process writing with
 * {@code WRITE_DELAY=0} did not reproduce it). A generator's state is kept apart from the rows, and
 * the rows are what a restart must trust, so the position is taken from them. PostgreSQL's
 * sequences are WAL-logged ahead of use and need no repair.
 *
 * <p>Which columns: the identity columns with a positive increment of the tables in schema
 * {@code SLUICE}, except Spring Batch's {@code BATCH_*} tables, whose ids Spring Batch takes from its
 * own sequences and inserts (their identity never moves, and is never used). Each is checked by
 * reading {@code MAX(column)} (its primary key's index) and then
 * {@code INFORMATION_SCHEMA.COLUMNS.IDENTITY_BASE} (the next value H2 would generate); the maximum
 * first, so that a key generated meanwhile by another connection is below the next value and a
 * healthy column is never restarted. A column whose next value is already used gets
 * {@code ALTER TABLE … ALTER COLUMN … RESTART WITH max + 1}; then the maximum is read again, and
 * while rows reached the new next value meanwhile (another process repaired and wrote), it is
 * restarted past them again, at most {@value #ATTEMPTS} times. A column that cannot be restarted (a
 * user without the right to alter it) is reported, not fatal. Run by {@link Warehouse#open} after
 * Flyway's migration; stateless and thread-safe.
 */
final class IdentityRepair {

    /** How many times a column is restarted past rows written while it was being repaired. */
    static final int ATTEMPTS = 5;

    /** What was done to one identity column: restarted {@code from} its next value {@code to} a new one, or not, and why. */
    record Outcome(String table, String column, long from, long to, @Nullable String failure) {
        @Override
        public String toString() {
            return failure != null
                    ? "identity " + table + "." + column + " would give " + from + " next, a value its table holds, and could not be restarted: "
                            + failure
                    : "identity " + table + "." + column + " would have given " + from + " next, a value its table holds; restarted at " + to;
        }
    }

    private IdentityRepair() {
    }

    /**
     * Restarts each identity column of Sluice's own tables whose next value is already used.
     *
     * @return what was done, one entry per column found behind its rows; empty in a healthy database
     * @throws SQLException when the catalog cannot be read
     */
    static List<Outcome> repair(DataSource dataSource) throws SQLException {
        List<Outcome> outcomes = new ArrayList<>();
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            List<String[]> columns = new ArrayList<>();
            try (ResultSet r = st.executeQuery("SELECT c.TABLE_NAME, c.COLUMN_NAME FROM INFORMATION_SCHEMA.COLUMNS c"
                    + " JOIN INFORMATION_SCHEMA.TABLES t ON t.TABLE_SCHEMA = c.TABLE_SCHEMA AND t.TABLE_NAME = c.TABLE_NAME"
                    + " WHERE c.TABLE_SCHEMA = 'SLUICE' AND t.TABLE_TYPE = 'BASE TABLE' AND c.IS_IDENTITY = 'YES'"
                    + " AND c.IDENTITY_INCREMENT > 0 AND c.TABLE_NAME NOT LIKE 'BATCH\\_%' ESCAPE '\\'")) {
                while (r.next()) {
                    columns.add(new String[] {r.getString(1), r.getString(2)});
                }
            }
            for (String[] col : columns) {
                Outcome o = repair(c, col[0], col[1]);
                if (o != null) {
                    outcomes.add(o);
                }
            }
        }
        return outcomes;
    }

    private static @Nullable Outcome repair(Connection c, String tableName, String column) throws SQLException {
        String table = "\"SLUICE\"." + quoted(tableName);
        String maxSql = "SELECT MAX(" + quoted(column) + ") FROM " + table;
        Long max = single(c, maxSql);
        Long next = nextValue(c, tableName, column);
        if (max == null || next == null || max < next || max == Long.MAX_VALUE) {
            return null;
        }
        long to = max + 1;
        try (Statement st = c.createStatement()) {
            for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
                st.execute("ALTER TABLE " + table + " ALTER COLUMN " + quoted(column) + " RESTART WITH " + to);
                Long after = single(c, maxSql);
                if (after == null || after < to) {
                    return new Outcome("SLUICE." + tableName, column, next, to, null);
                }
                to = after + 1;
            }
            return new Outcome("SLUICE." + tableName, column, next, to, "rows kept reaching its next value while it was restarted");
        } catch (SQLException e) {
            return new Outcome("SLUICE." + tableName, column, next, to, e.getMessage());
        }
    }

    private static @Nullable Long nextValue(Connection c, String table, String column) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT IDENTITY_BASE FROM INFORMATION_SCHEMA.COLUMNS"
                + " WHERE TABLE_SCHEMA = 'SLUICE' AND TABLE_NAME = ? AND COLUMN_NAME = ?")) {
            ps.setString(1, table);
            ps.setString(2, column);
            try (ResultSet r = ps.executeQuery()) {
                return r.next() ? nullable(r, r.getLong(1)) : null;
            }
        }
    }

    private static @Nullable Long single(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet r = st.executeQuery(sql)) {
            return r.next() ? nullable(r, r.getLong(1)) : null;
        }
    }

    private static @Nullable Long nullable(ResultSet r, long v) throws SQLException {
        return r.wasNull() ? null : v;
    }

    private static String quoted(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }
}
