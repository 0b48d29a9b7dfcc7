package dev.sluice.hotpath;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jooq.DSLContext;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;
import org.postgresql.PGConnection;

/**
 * The sink's bulk path on PostgreSQL: a batch's new events go by one {@code COPY … FROM STDIN}
 * (CSV) into a temporary staging table shaped like the sink ({@code pg_temp}, created once per
 * connection, {@code ON COMMIT DELETE ROWS}: empty at every batch's start, emptied by its commit
 * or rollback), then one set-based {@code INSERT INTO sink SELECT … FROM staging ON CONFLICT
 * (_event_id) DO NOTHING RETURNING _event_id} says which ids were written ("Populating a Database",
 * PostgreSQL docs §14.4). Runs on the caller's transaction's connection, so the events commit or
 * roll back with the rest of the batch.
 *
 * <p>CSV keeps every contract type in one encoder (whether binary COPY, as Bronze's
 * {@code PostgresCopyBronzeSink} writes it, is faster at these batch sizes is not measured). Values are encoded as PostgreSQL reads their literals: NULL an unquoted empty field, text always
 * quoted ({@code "} doubled; tabs, newlines, backslashes kept), so that an empty string stays
 * empty; numbers and booleans by {@code toString} (a double's shortest form that reads back to the
 * same double); timestamps ISO-8601 to the microsecond. {@link #encodable} says when a batch has a
 * value CSV cannot carry as the row path binds it (a NUL character, a year outside 1..9999): the
 * caller then takes the row path, whose error (if any) is the database's. Stateless; thread-safe.
 */
final class PostgresSinkCopy {

    private final SinkTable sink;

    PostgresSinkCopy(SinkTable sink) {
        this.sink = sink;
    }

    /** Whether every value of {@code rows} (as {@link SinkTable#row} gives them) has a CSV form that reads back exactly. */
    static boolean encodable(List<List<Object>> rows) {
        for (List<Object> row : rows) {
            for (Object v : row) {
                if (!PostgresArrays.carries(v)) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Writes {@code rows} (not empty, in {@link SinkTable#fields} order, at most one row per id)
     * and returns the ids actually written (an id already in the sink is not).
     *
     * @throws DataAccessException when a statement or the COPY fails; the caller rolls back
     */
    Set<String> insert(DSLContext tx, List<List<Object>> rows) {
        String target = tx.render(sink.table());
        String staging = tx.render(DSL.name(stagingName()));
        StringBuilder names = new StringBuilder();
        sink.fields().forEach(f -> names.append(names.isEmpty() ? "" : ", ").append(tx.render(DSL.name(f.getName()))));
        byte[] csv = csv(rows).getBytes(StandardCharsets.UTF_8); // whole: a Reader would split surrogate pairs at its pieces
        return tx.connectionResult(c -> {
            try {
                try (Statement st = c.createStatement()) {
                    st.execute("CREATE TEMP TABLE IF NOT EXISTS " + staging + " (LIKE " + target + " INCLUDING DEFAULTS) ON COMMIT DELETE ROWS");
                }
                c.unwrap(PGConnection.class).getCopyAPI().copyIn("COPY " + staging + " (" + names + ") FROM STDIN (FORMAT csv)",
                        new ByteArrayInputStream(csv));
                return written(c, "INSERT INTO " + target + " (" + names + ") SELECT " + names + " FROM " + staging
                        + " ON CONFLICT (" + tx.render(DSL.name("_event_id")) + ") DO NOTHING RETURNING " + tx.render(DSL.name("_event_id")));
            } catch (SQLException e) {
                throw new DataAccessException("the sink's COPY into " + target + ": " + e.getMessage(), e);
            } catch (IOException e) {
                throw new DataAccessException("the sink's COPY into " + target + ": " + e.getMessage(), e);
            }
        });
    }

    /**
     * The staging table's name: one per sink table (schema and table in the name, so that two sinks
     * of one name in two schemas never share one), in the session's {@code pg_temp} schema; a name
     * over PostgreSQL's 63 bytes ends in the qualified name's hash instead.
     */
    private String stagingName() {
        String qualified = String.join("_", sink.table().getQualifiedName().getName());
        String name = "sluice_stage_" + qualified;
        return name.length() <= 63 ? name : name.substring(0, 50) + "_" + Integer.toHexString(qualified.hashCode());
    }

    private static Set<String> written(Connection c, String sql) throws SQLException {
        Set<String> ids = new HashSet<>();
        try (PreparedStatement ps = c.prepareStatement(sql); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                ids.add(rs.getString(1));
            }
        }
        return ids;
    }

    /** {@code rows} as CSV lines, one per row, fields in row order. */
    static String csv(List<List<Object>> rows) {
        StringBuilder csv = new StringBuilder(rows.size() * 200);
        for (List<Object> row : rows) {
            for (int i = 0; i < row.size(); i++) {
                if (i > 0) {
                    csv.append(',');
                }
                field(csv, row.get(i));
            }
            csv.append('\n');
        }
        return csv.toString();
    }

    private static void field(StringBuilder csv, @Nullable Object v) {
        if (v == null) {
            return; // unquoted empty: NULL
        }
        if (v instanceof String s) {
            csv.append('"');
            for (int i = 0; i < s.length(); i++) {
                char ch = s.charAt(i);
                if (ch == '"') {
                    csv.append('"');
                }
                csv.append(ch);
            }
            csv.append('"');
        } else if (v instanceof BigDecimal d) {
            csv.append(d.toPlainString());
        } else {
            // numbers, booleans, LocalDate, LocalDateTime (ISO, 'T' read as the separator), OffsetDateTime (with its offset)
            csv.append(v);
        }
    }
}
