package dev.sluice.engine;

import java.util.List;

/**
 * Appends rows to a Bronze table: a layer engine's Bronze bulk path
 * ({@link dev.sluice.engine.LayerEngine#bronzeSink}). The warehouse engine's sinks write on
 * the connection of the current Spring transaction, so a chunk's rows commit with the chunk.
 * Implementations are not thread-safe; one per step execution.
 */
public interface BronzeSink {

    /**
     * Appends {@code rows} with their ingest metadata.
     *
     * @throws org.springframework.dao.DataAccessException when the database refuses them (the chunk rolls back)
     */
    void append(List<BronzeRow> rows);
}
