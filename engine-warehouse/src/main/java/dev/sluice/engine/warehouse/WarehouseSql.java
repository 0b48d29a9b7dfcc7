package dev.sluice.engine.warehouse;

import dev.sluice.core.BadInputException;
import dev.sluice.core.SluiceException;
import dev.sluice.engine.QueryResult;
import dev.sluice.warehouse.Warehouse;
import org.jooq.Queries;
import org.jooq.Select;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.ParserException;

/**
 * {@code sluice sql} on a warehouse pipeline: one SELECT in the warehouse database's own SQL, run in
 * a transaction that is rolled back (read-only on PostgreSQL), so nothing is ever written. Stateless
 * and thread-safe.
 */
final class WarehouseSql {

    private WarehouseSql() {
    }

    /**
     * Runs {@code query} on {@code warehouse}.
     *
     * @param maxRows the most rows returned, ≥ 1
     * @throws BadInputException when jOOQ's parser cannot parse it, or it is not exactly one SELECT
     * @throws SluiceException when the database refuses it, with the database's message
     */
    static QueryResult query(Warehouse warehouse, String query, int maxRows) {
        Queries parsed;
        try {
            parsed = warehouse.dsl().parser().parse(query);
        } catch (ParserException e) {
            throw new BadInputException("QUERY", -1, null, "cannot parse the query: "
                    + e.getMessage().lines().findFirst().orElse(""));
        }
        if (parsed.queries().length != 1 || !(parsed.queries()[0] instanceof Select<?>)) {
            throw new BadInputException("QUERY", -1, null, "sluice sql runs exactly one SELECT; it never writes");
        }
        try {
            return warehouse.dsl().connectionResult(c -> {
                c.setAutoCommit(false);
                try {
                    if (warehouse.isPostgres()) {
                        c.createStatement().execute("SET TRANSACTION READ ONLY");
                    }
                    return JdbcRows.read(c, query, maxRows);
                } finally {
                    c.rollback();
                    c.setAutoCommit(true);
                }
            });
        } catch (DataAccessException e) {
            throw new SluiceException("the query failed: " + e.getCause().getMessage());
        }
    }
}
