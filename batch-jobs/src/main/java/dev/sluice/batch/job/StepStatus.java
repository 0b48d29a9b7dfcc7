package dev.sluice.batch.job;

/**
 * The state of one step of a run, as Spring Batch records it (the names of its {@code BatchStatus},
 * so that the engine's type stays out of summaries).
 */
public enum StepStatus {
    STARTING, STARTED, STOPPING, STOPPED, FAILED, COMPLETED, ABANDONED, UNKNOWN;

    /** The status named {@code batchStatus} (Spring Batch's {@code BatchStatus.name()}). */
    public static StepStatus of(String batchStatus) {
        return valueOf(batchStatus);
    }
}
