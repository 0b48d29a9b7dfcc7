package dev.sluice.batch.job;

/** A plain run of a partition that is already COMPLETED: refused so that a repeat cannot re-load by accident. */
public class PartitionCompletedException extends RunRefusedException {
    public PartitionCompletedException(String message) {
        super(message);
    }
}
