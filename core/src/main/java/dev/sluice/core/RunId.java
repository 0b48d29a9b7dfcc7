package dev.sluice.core;

import java.security.SecureRandom;
import java.util.Objects;
import java.util.UUID;

/**
 * Identity of one run (one attempt of a job instance). A UUID version 7 (RFC 9562 §5.7): its first
 * 48 bits are the creation time in Unix milliseconds, so run ids sort by start time, as the
 * OpenLineage spec recommends for {@code run.runId}. Immutable and thread-safe.
 *
 * @param value the UUID
 */
public record RunId(UUID value) {

    private static final SecureRandom RANDOM = new SecureRandom();

    public RunId {
        Objects.requireNonNull(value, "value");
    }

    /** A new time-ordered run id. */
    public static RunId newId() {
        long millis = System.currentTimeMillis();
        long randA = RANDOM.nextInt(1 << 12);
        long msb = (millis << 16) | 0x7000L | randA;
        long lsb = (RANDOM.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new RunId(new UUID(msb, lsb));
    }

    /** Parses the canonical text form; throws {@link IllegalArgumentException} when malformed. */
    public static RunId parse(String text) {
        return new RunId(UUID.fromString(text));
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
