package dev.sluice.control.run;

/** Why a run was stopped on request (recorded in {@code sluice.run.stop_cause}). */
public enum StopCause {
    /** A step ran past its timeout ({@code execution.step_timeout} or the step's own): alerted like a failure. */
    TIMEOUT,
    /** {@code sluice cancel} (or a cancelled backfill): not alerted. */
    CANCEL,
    /** The process is shutting down (SIGTERM, SIGINT): a scheduler resumes the run; not alerted. */
    SHUTDOWN
}
