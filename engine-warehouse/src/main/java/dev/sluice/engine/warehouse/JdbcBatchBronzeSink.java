package dev.sluice.engine.warehouse;

import dev.sluice.engine.BronzeColumns;
import dev.sluice.engine.BronzeRow;
import dev.sluice.engine.BronzeSink;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.jdbc.support.SQLErrorCodeSQLExceptionTranslator;

/**
 * Appends rows with one JDBC batch of a prepared INSERT per chunk: the bulk path for H2 (and any
 * database without COPY). Not thread-safe.
 */
final class JdbcBatchBronzeSink implements BronzeSink {

    private final DataSource dataSource;
    private final BronzeColumns columns;
    private final String sql;

    public JdbcBatchBronzeSink(DataSource dataSource, BronzeColumns columns) {
        this.dataSource = dataSource;
        this.columns = columns;
        this.sql = "INSERT INTO " + columns.table().qualifiedName() + " (" + String.join(", ", columns.names())
                + ") VALUES (" + "?, ".repeat(columns.names().size() - 1) + "?)";
    }

    @Override
    public void append(List<BronzeRow> rows) {
        Connection c = DataSourceUtils.getConnection(dataSource);
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            int n = columns.businessColumns();
            String partition = columns.partition().key();
            String run = columns.run().toString();
            for (BronzeRow r : rows) {
                Object[] v = r.values();
                for (int i = 0; i < n; i++) {
                    ps.setObject(i + 1, v[i]);
                }
                ps.setString(n + 1, partition);
                ps.setString(n + 2, run);
                ps.setString(n + 3, r.source());
                ps.setLong(n + 4, r.position());
                ps.setObject(n + 5, columns.ingestedAt());
                ps.setString(n + 6, r.rowHash());
                ps.setString(n + 7, r.parseErrors());
                ps.addBatch();
            }
            ps.executeBatch();
        } catch (SQLException e) {
            throw new SQLErrorCodeSQLExceptionTranslator(dataSource).translate("Bronze append", sql, e);
        } finally {
            DataSourceUtils.releaseConnection(c, dataSource);
        }
    }
}
