package dev.sluice.control.run;

/**
 * What an execution's lineage emitters did, as recorded on its attempt ({@code sluice.run}'s
 * {@code lineage_sent}, {@code lineage_dropped}, {@code lineage_failed}).
 *
 * @param sent events delivered, ≥ 0
 * @param dropped events dropped because the emitter's queue was full, ≥ 0
 * @param failed events a transport refused or could not deliver, ≥ 0
 */
public record LineageCounts(long sent, long dropped, long failed) {
}
