package dev.sluice.batch.bronze;

import java.io.IOException;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.LocalDateTime;
import java.util.List;
import javax.sql.DataSource;
import org.postgresql.PGConnection;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.jdbc.support.SQLErrorCodeSQLExceptionTranslator;

/**
 * Appends rows with PostgreSQL's {@code COPY … FROM STDIN (FORMAT csv)}, one COPY per chunk on
 * the transaction's connection: PostgreSQL's bulk path ("Populating a Database", PostgreSQL docs
 * §14.4). NULL is an unquoted empty field; every text value is quoted, so an empty string stays
 * an empty string. Not thread-safe.
 */
public final class PostgresCopyBronzeSink implements BronzeSink {

    private final DataSource dataSource;
    private final BronzeColumns columns;
    private final String sql;

    public PostgresCopyBronzeSink(DataSource dataSource, BronzeColumns columns) {
        this.dataSource = dataSource;
        this.columns = columns;
        this.sql = "COPY " + columns.table().qualifiedName() + " (" + String.join(", ", columns.names())
                + ") FROM STDIN (FORMAT csv)";
    }

    @Override
    public void append(List<BronzeRow> rows) {
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
        Connection c = DataSourceUtils.getConnection(dataSource);
        try {
            c.unwrap(PGConnection.class).getCopyAPI().copyIn(sql, new StringReader(csv.toString()));
        } catch (SQLException e) {
            throw new SQLErrorCodeSQLExceptionTranslator(dataSource).translate("Bronze COPY", sql, e);
        } catch (IOException e) {
            throw new DataAccessResourceFailureException("Bronze COPY: " + e.getMessage(), e);
        } finally {
            DataSourceUtils.releaseConnection(c, dataSource);
        }
    }

    private static void field(StringBuilder csv, Object v) {
        if (v == null) {
            return;
        }
        if (v instanceof String s) {
            csv.append(quote(s));
        } else if (v instanceof LocalDateTime t) {
            csv.append(t);
        } else {
            csv.append(v);
        }
    }

    private static String quote(String s) {
        return "\"" + s.replace("\"", "\"\"") + "\"";
    }
}
