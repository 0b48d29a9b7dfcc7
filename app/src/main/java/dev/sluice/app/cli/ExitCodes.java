package dev.sluice.app.cli;

/** The exit codes of every sluice command (documented in docs/commands.md, "Exit codes"). */
public final class ExitCodes {
    /** Success. */
    public static final int OK = 0;
    /** A run failed (a step failed; restart it with a plain run). */
    public static final int RUN_FAILED = 1;
    /** Invalid input: spec problems, bad arguments, missing landing files or sample data problems. */
    public static final int INVALID = 2;
    /** Refused: the partition is already COMPLETED (use --rerun) or is marked running. */
    public static final int REFUSED = 3;
    /** Stopped on request: a step timeout, {@code sluice cancel} or SIGTERM/SIGINT; a plain run resumes it. */
    public static final int STOPPED = 4;
    /** An unexpected internal error (details in the log file). */
    public static final int INTERNAL = 70;

    private ExitCodes() {
    }
}
