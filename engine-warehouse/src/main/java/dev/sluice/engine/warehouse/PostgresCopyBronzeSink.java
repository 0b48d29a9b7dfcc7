package dev.sluice.engine.warehouse;

import dev.sluice.engine.BronzeColumns;
import dev.sluice.engine.BronzeRow;
import dev.sluice.engine.BronzeSink;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;
import org.postgresql.copy.CopyManager;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.jdbc.support.SQLErrorCodeSQLExceptionTranslator;

/**
 * Appends rows with PostgreSQL's {@code COPY … FROM STDIN}, one COPY per chunk on the transaction's
 * connection: PostgreSQL's bulk path ("Populating a Database", PostgreSQL docs §14.4).
 *
 * <p>The format is binary ({@link PgBinaryRows}) when every column's value has an exact binary
 * form in the table's column type, as the table's catalog gives it on the first chunk; the data
 * goes to the server in pieces of {@value #PIECE_BYTES} bytes while the rest is encoded, so the
 * server parses one piece while the next is written. Otherwise (a column's type changed since the
 * table was created, or a column this sink does not know) it is CSV, which the server converts
 * as it would any literal: NULL is an unquoted empty field and every text value is quoted, so an
 * empty string stays an empty string. Not thread-safe.
 */
final class PostgresCopyBronzeSink implements BronzeSink {

    /** Bytes of binary COPY data encoded before they are sent (the server works on them meanwhile). */
    static final int PIECE_BYTES = 1 << 16;

    private final DataSource dataSource;
    private final BronzeColumns columns;
    private final String csvSql;
    private final String binarySql;
    /** Decided on the first chunk: the binary encoder, or null for CSV. */
    private @Nullable PgBinaryRows binary;
    private boolean decided;

    public PostgresCopyBronzeSink(DataSource dataSource, BronzeColumns columns) {
        this.dataSource = dataSource;
        this.columns = columns;
        String copy = "COPY " + columns.table().qualifiedName() + " (" + String.join(", ", columns.names()) + ") FROM STDIN ";
        this.csvSql = copy + "(FORMAT csv)";
        this.binarySql = copy + "(FORMAT binary)";
    }

    /** Whether this sink writes binary COPY; known after the first {@link #append}. */
    boolean binary() {
        return binary != null;
    }

    @Override
    public void append(List<BronzeRow> rows) {
        Connection c = DataSourceUtils.getConnection(dataSource);
        String sql = csvSql;
        try {
            if (!decided) {
                binary = PgBinaryRows.of(columns, tableTypes(c)).orElse(null);
                decided = true;
            }
            CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
            if (binary != null) {
                sql = binarySql;
                appendBinary(copy, binary, rows);
            } else {
                // encoded here, whole: the driver's Reader form encodes 64 Ki-char pieces apart and splits surrogate pairs
                copy.copyIn(sql, new ByteArrayInputStream(csv(rows).getBytes(StandardCharsets.UTF_8)));
            }
        } catch (SQLException e) {
            throw new SQLErrorCodeSQLExceptionTranslator(dataSource).translate("Bronze COPY", sql, e);
        } catch (IOException e) {
            throw new DataAccessResourceFailureException("Bronze COPY: " + e.getMessage(), e);
        } finally {
            DataSourceUtils.releaseConnection(c, dataSource);
        }
    }

    private void appendBinary(CopyManager copy, PgBinaryRows enc, List<BronzeRow> rows) throws SQLException {
        CopyIn in = copy.copyIn(binarySql);
        try {
            enc.begin();
            for (BronzeRow r : rows) {
                enc.row(r);
                if (enc.size() >= PIECE_BYTES) {
                    in.writeToCopy(enc.buffer(), 0, enc.size());
                    enc.drain();
                }
            }
            enc.end();
            in.writeToCopy(enc.buffer(), 0, enc.size());
            enc.drain();
            in.endCopy();
        } finally {
            if (in.isActive()) {
                in.cancelCopy();
            }
        }
    }

    /** The table's columns and their PostgreSQL type names ({@code pg_type.typname}). */
    private Map<String, String> tableTypes(Connection c) throws SQLException {
        Map<String, String> types = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT a.attname, t.typname FROM pg_attribute a"
                + " JOIN pg_class r ON r.oid = a.attrelid JOIN pg_namespace n ON n.oid = r.relnamespace"
                + " JOIN pg_type t ON t.oid = a.atttypid"
                + " WHERE n.nspname = ? AND r.relname = ? AND a.attnum > 0 AND NOT a.attisdropped")) {
            ps.setString(1, columns.table().schema());
            ps.setString(2, columns.table().table());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    types.put(rs.getString(1), rs.getString(2));
                }
            }
        }
        return types;
    }

    private String csv(List<BronzeRow> rows) {
        StringBuilder csv = new StringBuilder(rows.size() * 160);
        int n = columns.businessColumns();
        String tail = "," + quote(columns.partition().key()) + "," + quote(columns.run().toString()) + ",";
        String ingested = columns.ingestedAt().toString();
        for (BronzeRow r : rows) {
            Object[] v = r.values();
            for (int i = 0; i < n; i++) {
                if (i > 0) {
                    csv.append(',');
                }
                field(csv, v[i]);
            }
            csv.append(tail).append(quote(r.source())).append(',').append(r.position()).append(',')
                    .append(ingested).append(',').append(r.rowHash()).append(',');
            if (r.parseErrors() != null) {
                csv.append(quote(r.parseErrors()));
            }
            csv.append('\n');
        }
        return csv.toString();
    }

    private static void field(StringBuilder csv, Object v) {
        if (v == null) {
            return;
        }
        if (v instanceof String s) {
            csv.append(quote(s));
        } else if (v instanceof LocalDateTime t) {
            csv.append(t);
        } else if (v instanceof BigDecimal d) {
            csv.append(d.toPlainString());
        } else {
            csv.append(v);
        }
    }

    private static String quote(String s) {
        return "\"" + s.replace("\"", "\"\"") + "\"";
    }
}
