package dev.sluice.batch.testkit;

import dev.sluice.warehouse.Warehouse;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.jooq.SQLDialect;

/**
 * Waits until a session of a warehouse waits on another's lock: H2's
 * {@code INFORMATION_SCHEMA.SESSIONS.BLOCKER_ID}, PostgreSQL's {@code pg_stat_activity} wait event
 * {@code Lock}. For tests that hold a lock and must know that another run now waits for it.
 */
public final class BlockedSessions {

    private BlockedSessions() {
    }

    /**
     * Polls every 10 ms, for up to 120 s, until a session is blocked or {@code over} is true.
     *
     * @return whether a session was seen blocked
     */
    public static boolean await(Warehouse w, BooleanSupplier over) {
        String blocked = w.dsl().dialect().family() == SQLDialect.POSTGRES
                ? "SELECT COUNT(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                : "SELECT COUNT(*) FROM INFORMATION_SCHEMA.SESSIONS WHERE BLOCKER_ID IS NOT NULL";
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline && !over.getAsBoolean()) {
            if (((Number) w.dsl().fetchValue(blocked)).longValue() == 0) {
                LockSupport.parkNanos(10_000_000);
            } else {
                return true;
            }
        }
        return false;
    }
}
