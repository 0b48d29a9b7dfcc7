package dev.sluice.config;

import java.util.Locale;
import java.util.Optional;

/** What a load does with a column that a landed file has and its contract does not. */
public enum DriftPolicy {
    /** Refuse the partition before anything is written. */
    FAIL,
    /** Load the contract's columns; the added column is reported and not loaded. */
    IGNORE,
    /** Add the column to the Bronze table (nullable) and load it. */
    EVOLVE;

    /** Parses the spec spelling; empty when unknown. */
    public static Optional<DriftPolicy> parse(String text) {
        for (DriftPolicy p : values()) {
            if (p.name().equalsIgnoreCase(text)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
