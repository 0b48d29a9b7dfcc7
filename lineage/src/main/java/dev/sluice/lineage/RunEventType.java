package dev.sluice.lineage;

/** OpenLineage run states (spec: RunEvent.eventType): START, then exactly one terminal state. */
public enum RunEventType {
    START, COMPLETE, FAIL, ABORT
}
