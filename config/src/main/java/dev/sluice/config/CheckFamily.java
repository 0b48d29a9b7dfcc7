package dev.sluice.config;

/** The five families of quality checks. */
public enum CheckFamily {
    /** Is the data recent enough for its partition's nominal time? */
    FRESHNESS,
    /** Are the values and rows there (non-null, expected row count)? */
    COMPLETENESS,
    /** Does each value or key occur once? */
    UNIQUENESS,
    /** Are the values allowed (set, range, pattern, format, schema)? */
    VALIDITY,
    /** Do aggregates look like the accepted history (anomaly detection) or a declared range? */
    DISTRIBUTION
}
