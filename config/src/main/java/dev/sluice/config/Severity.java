package dev.sluice.config;

import java.util.Locale;
import java.util.Optional;

/** What a failed check does. */
public enum Severity {
    /** Blocks the partition: the gate's step fails and can be restarted after a fix. */
    ERROR,
    /** Recorded and reported; the partition goes on. */
    WARN;

    /** Parses {@code error} / {@code warn}. */
    public static Optional<Severity> parse(String text) {
        for (Severity s : values()) {
            if (s.name().toLowerCase(Locale.ROOT).equals(text)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }
}
