package dev.sluice.app.schedule;

import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Waiting for a condition in scheduler tests: polled every 100 ms up to a deadline, never a fixed
 * sleep. A deadline is a bound for a machine under load, not an expectation of speed: a slower
 * machine waits longer, it does not fail.
 */
final class Waits {

    private Waits() {
    }

    /**
     * Returns when {@code condition} holds.
     *
     * @throws AssertionError naming {@code what} when it does not hold within {@code timeout}
     */
    static void until(String what, Duration timeout, BooleanSupplier condition) {
        until(what, timeout, condition, () -> "not yet");
    }

    /**
     * Returns when {@code condition} holds.
     *
     * @param seen what was observed instead, for the failure message (called once, at the deadline)
     * @throws AssertionError naming {@code what} and what was {@code seen} when it does not hold
     *     within {@code timeout}
     */
    static void until(String what, Duration timeout, BooleanSupplier condition, Supplier<String> seen) {
        Instant deadline = Instant.now().plus(timeout);
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("waited " + timeout + " for: " + what + "; saw: " + seen.get());
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
