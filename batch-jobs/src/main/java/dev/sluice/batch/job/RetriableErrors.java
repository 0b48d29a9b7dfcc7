package dev.sluice.batch.job;

import dev.sluice.core.RetriableSluiceException;
import java.sql.SQLException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientException;
import java.util.Set;
import org.springframework.dao.TransientDataAccessException;

/**
 * Which failures may pass when a step is tried again unchanged: a lost or refused connection
 * (SQLSTATE class 08), a transaction rolled back by the database (class 40: serialization failure,
 * deadlock), a lock that could not be had in time (PostgreSQL 55P03, H2 50200 / HYT00), an
 * administrator's shutdown (57P01), the JDBC transient and recoverable exception types, and
 * {@link RetriableSluiceException}. Everything else (bad SQL, a broken key, a failed gate, bad
 * input) fails the same way again and is not retried. SQLSTATEs: SQL:2016 part 2 §24.1 and the
 * PostgreSQL manual, appendix A. Stateless.
 */
final class RetriableErrors {

    private static final Set<String> STATES = Set.of("55P03", "57P01", "HYT00");
    private static final int H2_LOCK_TIMEOUT = 50200;

    private RetriableErrors() {
    }

    /** True when {@code failure} or one of its causes is retriable. */
    static boolean retriable(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof RetriableSluiceException || t instanceof SQLTransientException || t instanceof SQLRecoverableException
                    || t instanceof TransientDataAccessException) {
                return true;
            }
            if (t instanceof SQLException e) {
                String state = e.getSQLState() == null ? "" : e.getSQLState();
                if (state.startsWith("08") || state.startsWith("40") || STATES.contains(state) || e.getErrorCode() == H2_LOCK_TIMEOUT) {
                    return true;
                }
            }
        }
        return false;
    }
}
