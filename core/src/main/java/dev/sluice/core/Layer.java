package dev.sluice.core;

import java.util.Locale;

/** The medallion layers, in the order data flows through them. */
public enum Layer {
    /** Raw rows as read, append-only, with ingest metadata. */
    BRONZE,
    /** Typed, deduplicated, conformed rows; bad rows go to quarantine instead. */
    SILVER,
    /** Marts and aggregates built from Silver. */
    GOLD;

    /** The lower-case name used in specs and schema names ({@code bronze}, {@code silver}, {@code gold}). */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
