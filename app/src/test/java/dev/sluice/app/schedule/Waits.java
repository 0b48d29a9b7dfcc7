package dev.sluice.app.schedule;

import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;

/** Waiting for a condition in scheduler tests: polled every 100 ms up to a deadline, never a fixed sleep. */
final class Waits {

    private Waits() {
    }

    /**
     * Returns when {@code condition} holds.
     *
     * @throws AssertionError naming {@code what} when it does not hold within {@code timeout}
     */
    static void until(String what, Duration timeout, BooleanSupplier condition) {
        Instant deadline = Instant.now().plus(timeout);
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("waited " + timeout + " for: " + what);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for: " + what, e);
            }
        }
    }
}
