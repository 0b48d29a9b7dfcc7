package dev.sluice.operations.freshness;

/** A dataset's freshness: by its time since last update (TSLU) against its interval and SLA. */
public enum FreshnessState {
    /** TSLU ≤ 1.5 × the update interval. */
    OK,
    /** 1.5 × the update interval &lt; TSLU ≤ the SLA: late. */
    WARN,
    /** TSLU &gt; the SLA: the promise is broken. */
    BREACH,
    /** Never published: no TSLU yet. */
    NEVER
}
