package dev.sluice.engine;

import dev.sluice.core.BadInputException;
import dev.sluice.core.SluiceException;

/**
 * Reads for {@code sluice sql}: one read-only query over the pipeline's tables, in the engine's own
 * SQL (the warehouse engine: the warehouse database's, where the {@code sluice.*} control tables
 * are visible too; the lakehouse engine: Spark SQL over the Iceberg tables, with their metadata
 * tables and time travel). Part of {@link LayerEngine}; thread-safe.
 */
public interface TableReads {

    /**
     * Runs {@code sql}, which must be exactly one query; nothing is written (the warehouse engine
     * runs it in a transaction that is rolled back, read-only on PostgreSQL).
     *
     * @param maxRows the most rows returned in {@link QueryResult#rows()}, ≥ 1
     * @throws BadInputException when the query cannot be parsed, or is not exactly one query (a
     *     write, DDL or command is refused before anything runs)
     * @throws SluiceException when the query fails (an unknown table or column), with the engine's first line
     */
    QueryResult query(String sql, int maxRows);

}
