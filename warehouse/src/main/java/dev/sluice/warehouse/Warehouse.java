package dev.sluice.warehouse;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.sluice.config.WarehouseSpec;
import dev.sluice.core.SluiceException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.conf.RenderQuotedNames;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * An open warehouse: a connection pool on the spec's JDBC URL, Sluice's metadata schema migrated
 * by Flyway, a Spring transaction manager, and a jOOQ {@link DSLContext} that joins the current
 * Spring transaction. H2 and PostgreSQL are supported; the same jOOQ code runs on both.
 *
 * <p>Thread-safe. Close it to release the pool.
 */
public final class Warehouse implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Warehouse.class);

    /** Schema of Sluice's own tables (metadata, quarantine, Spring Batch repository). */
    public static final String METADATA_SCHEMA = "sluice";

    private final HikariDataSource dataSource;
    private final SQLDialect dialect;
    private final DataSourceTransactionManager transactionManager;
    private final DSLContext dsl;
    private final WarehouseSpec spec;

    /** Connections of a warehouse opened by {@link #open(WarehouseSpec)}. */
    public static final int DEFAULT_POOL_SIZE = 4;

    private Warehouse(HikariDataSource dataSource, SQLDialect dialect, WarehouseSpec spec) {
        this.spec = spec;
        this.dataSource = dataSource;
        this.dialect = dialect;
        this.transactionManager = new DataSourceTransactionManager(dataSource);
        Settings settings = new Settings().withRenderQuotedNames(RenderQuotedNames.NEVER)
                .withExecuteLogging(false).withRenderSchema(true);
        this.dsl = DSL.using(new TransactionAwareDataSourceProxy(dataSource), dialect, settings);
    }

    /**
     * Opens the warehouse and migrates Sluice's metadata tables to the newest version.
     *
     * On H2, after the migration, each identity column of Sluice's tables whose generator lags
     * behind its table's rows (kills have left it so) is restarted past them, with a warning
     * ({@link IdentityRepair}).
     *
     * @throws SluiceException when the database cannot be reached, a migration fails, or (H2) the
     *     identity columns cannot be read; the message names the URL (never the password)
     */
    public static Warehouse open(WarehouseSpec spec) {
        return open(spec, DEFAULT_POOL_SIZE);
    }

    /**
     * Opens the warehouse with a pool of {@code poolSize} connections (a backfill needs one per
     * partition working at once, plus the lineage store and the gates' history reads).
     *
     * @throws SluiceException as {@link #open(WarehouseSpec)}
     */
    public static Warehouse open(WarehouseSpec spec, int poolSize) {
        SQLDialect dialect = dialectOf(spec.url());
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(spec.url());
        config.setUsername(spec.user());
        config.setPassword(spec.password());
        config.setMaximumPoolSize(poolSize);
        config.setPoolName("sluice-warehouse");
        config.setInitializationFailTimeout(-1);
        HikariDataSource ds = new HikariDataSource(config);
        try (Connection c = ds.getConnection()) {
            c.isValid(5);
        } catch (SQLException e) {
            ds.close();
            throw new SluiceException("cannot connect to the warehouse " + redacted(spec.url()) + ": " + redacted(String.valueOf(e.getMessage())), e);
        }
        Warehouse w = new Warehouse(ds, dialect, spec);
        try {
            w.migrate();
        } catch (FlywayException e) {
            w.close();
            throw new SluiceException("migrating Sluice's metadata tables in " + redacted(spec.url()) + " failed: " + e.getMessage(), e);
        }
        if (dialect == SQLDialect.H2) {
            try {
                for (IdentityRepair.Outcome o : IdentityRepair.repair(ds)) {
                    LOG.warn("{} (the database was stopped uncleanly)", o);
                }
            } catch (SQLException e) {
                w.close();
                throw new SluiceException("checking the identity columns of " + redacted(spec.url()) + " failed: " + e.getMessage(), e);
            }
        }
        return w;
    }

    private void migrate() {
        String vendor = dialect == SQLDialect.POSTGRES ? "postgresql" : "h2";
        String schema = dialect == SQLDialect.POSTGRES ? METADATA_SCHEMA : METADATA_SCHEMA.toUpperCase(Locale.ROOT);
        Flyway.configure(getClass().getClassLoader())
                .dataSource(dataSource)
                .schemas(schema)
                .locations("classpath:db/migration/common", "classpath:db/migration/" + vendor)
                .load()
                .migrate();
    }

    /** The JDBC URL every connection to this warehouse uses (the pool's, and Spark's for the gates). */
    public String jdbcUrl() {
        return spec.url();
    }

    static SQLDialect dialectOf(String url) {
        if (url.startsWith("jdbc:postgresql:")) {
            return SQLDialect.POSTGRES;
        }
        if (url.startsWith("jdbc:h2:")) {
            return SQLDialect.H2;
        }
        throw new SluiceException("unsupported warehouse URL " + url + ": use jdbc:h2: or jdbc:postgresql:");
    }

    /** Where the warehouse is (URL, user, password: for engines that open their own connections). */
    public WarehouseSpec spec() {
        return spec;
    }

    /** The pool. Statements on it outside a Spring transaction auto-commit. */
    public DataSource dataSource() {
        return dataSource;
    }

    /** The jOOQ context; joins the Spring transaction of the calling thread when there is one. */
    public DSLContext dsl() {
        return dsl;
    }

    /** The transaction manager of this warehouse's pool. */
    public PlatformTransactionManager transactionManager() {
        return transactionManager;
    }

    /** The SQL dialect ({@link SQLDialect#H2} or {@link SQLDialect#POSTGRES}). */
    public SQLDialect dialect() {
        return dialect;
    }

    /** True for PostgreSQL. */
    public boolean isPostgres() {
        return dialect == SQLDialect.POSTGRES;
    }

    @Override
    public void close() {
        dataSource.close();
    }

    /**
     * {@code url} with credentials hidden: the user-info of {@code //user:secret@host} and the value
     * of every {@code password=}/{@code pwd=}/{@code secret=}/{@code token=} parameter (any case,
     * {@code ?}, {@code &} or {@code ;} separated) become {@code ****}. For messages and logs.
     */
    public static String redacted(String url) {
        return url.replaceAll("(//[^/@\\s:]+:)[^/@\\s]+@", "$1****@")
                .replaceAll("(?i)((?:password|pwd|secret|token|api_?key)=)[^&;\\s]*", "$1****");
    }
}
