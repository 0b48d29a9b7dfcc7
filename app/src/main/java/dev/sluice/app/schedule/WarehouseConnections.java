package dev.sluice.app.schedule;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.quartz.utils.ConnectionProvider;

/** Hands Quartz's JDBC job store connections from the warehouse's pool. Thread-safe. */
final class WarehouseConnections implements ConnectionProvider {

    private final DataSource dataSource;

    WarehouseConnections(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    @Override
    public Connection getConnection() throws SQLException {
        return dataSource.getConnection();
    }

    @Override
    public void shutdown() {
        // the pool belongs to the warehouse, which closes it
    }

    @Override
    public void initialize() {
        // nothing: the pool is open
    }
}
