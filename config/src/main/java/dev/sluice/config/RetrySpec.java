package dev.sluice.config;

import java.time.Duration;

/**
 * How a step that failed with a retriable error (a lost connection, a lock or statement timeout, a
 * serialization failure or deadlock: errors that may pass when tried again unchanged) is tried
 * again: from where it failed (its job restarts from the failed step; a Bronze step from its last
 * committed chunk), after an exponential backoff. Immutable.
 *
 * @param maxAttempts tries in all, the first included (1: never retried)
 * @param backoff the wait before the first retry
 * @param multiplier each further wait is the one before × this (≥ 1)
 * @param maxBackoff no wait is longer than this
 */
public record RetrySpec(int maxAttempts, Duration backoff, double multiplier, Duration maxBackoff) {

    /** The defaults: 3 tries, waits of 5 s then 10 s (at most 5 min). */
    public static final RetrySpec DEFAULT = new RetrySpec(3, Duration.ofSeconds(5), 2.0, Duration.ofMinutes(5));

    public RetrySpec {
        if (maxAttempts < 1 || multiplier < 1 || backoff.isNegative() || maxBackoff.isNegative()) {
            throw new IllegalArgumentException("max_attempts ≥ 1, multiplier ≥ 1, waits ≥ 0");
        }
    }

    /** The wait before retry {@code n} (1 = the first retry): backoff × multiplier^(n−1), at most maxBackoff. */
    public Duration delay(int n) {
        double ms = backoff.toMillis() * Math.pow(multiplier, Math.max(0, n - 1));
        return Duration.ofMillis((long) Math.min(ms, maxBackoff.toMillis()));
    }
}
