package dev.sluice.warehouse;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * Moves every identity column of an H2 warehouse past the largest value its table holds, so that
 * the next generated key is free.
 *
 * <p>Why: after a process was killed (SIGKILL) while it wrote, an H2 file database has been seen to
 * hold rows whose identity values its identity generator was about to give again: a backfill's
 * restart then failed with a duplicate {@code sluice.quality_results(result_id)} (the fault suite's
 * case {@code lake-h2:BACKFILL:252}). An identity generator's state is kept apart from the rows, and
 * the rows are what the restart must trust, so the position is taken from them, as every other
 * restart position in Sluice is. PostgreSQL's sequences are WAL-logged ahead of use and need no
 * repair.
 *
 * <p>Reads {@code MAX(column)} and then {@code INFORMATION_SCHEMA.COLUMNS.IDENTITY_BASE} (the next
 * value H2 would generate) for each identity column of every schema but {@code INFORMATION_SCHEMA}:
 * one index read per column. A column whose next value is not above its maximum gets
 * {@code ALTER TABLE … ALTER COLUMN … RESTART WITH max + 1}. Meant for the opening of the warehouse,
 * before any run writes; stateless and thread-safe.
 */
final class IdentityRepair {

    /** One identity column that was moved: {@code from} the next value it would have given, {@code to} its new next value. */
    record Restarted(String schema, String table, String column, long from, long to) {
        @Override
        public String toString() {
            return schema + "." + table + "." + column + " would have given " + from + " next, while the table holds "
                    + (to - 1) + "; restarted at " + to;
        }
    }

    private IdentityRepair() {
    }

    /**
     * Restarts each H2 identity column whose next value is already used.
     *
     * @return the columns restarted, empty in a healthy database
     * @throws SQLException when the catalog cannot be read or a restart fails
     */
    static List<Restarted> repair(DataSource dataSource) throws SQLException {
        List<Restarted> restarted = new ArrayList<>();
        try (Connection c = dataSource.getConnection(); Statement st = c.createStatement()) {
            List<String[]> columns = new ArrayList<>();
            try (ResultSet r = st.executeQuery("SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME FROM INFORMATION_SCHEMA.COLUMNS"
                    + " WHERE IS_IDENTITY = 'YES' AND TABLE_SCHEMA <> 'INFORMATION_SCHEMA'")) {
                while (r.next()) {
                    columns.add(new String[] {r.getString(1), r.getString(2), r.getString(3)});
                }
            }
            for (String[] col : columns) {
                String table = quoted(col[0]) + "." + quoted(col[1]);
                Long max = single(st, "SELECT MAX(" + quoted(col[2]) + ") FROM " + table);
                // the next value is read after the maximum: a key generated meanwhile by another
                // connection is below it, so a healthy column is never restarted
                Long next = single(st, "SELECT IDENTITY_BASE FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA = '" + col[0].replace("'", "''")
                        + "' AND TABLE_NAME = '" + col[1].replace("'", "''") + "' AND COLUMN_NAME = '" + col[2].replace("'", "''") + "'");
                if (max != null && next != null && max >= next) {
                    st.execute("ALTER TABLE " + table + " ALTER COLUMN " + quoted(col[2]) + " RESTART WITH " + (max + 1));
                    restarted.add(new Restarted(col[0], col[1], col[2], next, max + 1));
                }
            }
        }
        return restarted;
    }

    private static @Nullable Long single(Statement st, String sql) throws SQLException {
        try (ResultSet r = st.executeQuery(sql)) {
            if (!r.next()) {
                return null;
            }
            long v = r.getLong(1);
            return r.wasNull() ? null : v;
        }
    }

    private static String quoted(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }
}
