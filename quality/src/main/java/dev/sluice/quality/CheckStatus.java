package dev.sluice.quality;

/** The outcome of one check. */
public enum CheckStatus {
    /** The expectation held. */
    PASSED,
    /** A {@code warn} check did not hold: recorded, the partition goes on. */
    WARNED,
    /** An {@code error} check did not hold: the gate's step fails. */
    FAILED,
    /** An anomaly check had too little accepted history to judge; never an exception. */
    INSUFFICIENT_HISTORY,
    /**
     * There were no values to judge (e.g. a reconciliation of a partition the hot path delivered no
     * event of): neither held nor broken, whatever the severity; never a difference, never an
     * exception.
     */
    NO_DATA
}
