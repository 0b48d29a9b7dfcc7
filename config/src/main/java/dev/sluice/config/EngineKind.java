package dev.sluice.config;

import java.util.Locale;

/**
 * Which layer engine builds a pipeline's Bronze, Silver and Gold ({@code engine:} in the spec).
 * docs/engines.md says how to choose.
 */
public enum EngineKind {
    /** Every layer a table of the warehouse database (H2, PostgreSQL), built by set-based SQL through jOOQ. The default. */
    WAREHOUSE,
    /** Every layer an Apache Iceberg table (format v2, Parquet) in the warehouse database's Iceberg catalog, built by Spark SQL. */
    LAKEHOUSE;

    /** The spec's spelling ({@code warehouse}, {@code lakehouse}). */
    public String specName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
