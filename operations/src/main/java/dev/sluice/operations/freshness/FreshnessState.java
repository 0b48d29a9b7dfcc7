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
    NEVER;

    /**
     * How bad the state is, to pick a pipeline's worst: ok 0, never 1, warn 2, breach 3 (a dataset
     * never published is worse than a fresh one, better than a late one).
     */
    public int severity() {
        return switch (this) {
            case OK -> 0;
            case NEVER -> 1;
            case WARN -> 2;
            case BREACH -> 3;
        };
    }
}
