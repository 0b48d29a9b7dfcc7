package dev.sluice.batch.bronze;

import java.util.List;

/**
 * Appends rows to a Bronze table on the connection of the current Spring transaction: the bulk
 * path of one database. Implementations are not thread-safe; one per step execution.
 */
public interface BronzeSink {

    /**
     * Appends {@code rows} with their ingest metadata.
     *
     * @throws org.springframework.dao.DataAccessException when the database refuses them (the chunk rolls back)
     */
    void append(List<BronzeRow> rows);
}
