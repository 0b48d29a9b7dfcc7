package dev.sluice.batch.job;

import dev.sluice.batch.wave.WaveSteps;
import dev.sluice.core.BadInputException;
import dev.sluice.core.BoundedText;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How to run a partition. Only {@code rerun} affects identity; the rest is recorded or shapes the
 * run without changing what it writes.
 *
 * @param rerun open the next attempt of a COMPLETED partition, or give up a FAILED attempt and
 *     open the next instead of restarting it
 * @param requester who asked (user name, scheduler), or null; cut to {@value #MAX_REQUESTER_CHARS}
 *     characters ({@code sluice.run.requester})
 * @param traceId a caller's correlation id, or null; at most {@value #MAX_TRACE_ID_CHARS}
 *     characters ({@code sluice.run.trace_id})
 * @param recoverStale restart an attempt marked running although its process is not known to be
 *     gone (it ran on another host): the caller vouches that it is
 * @param parent the run that started this one (a backfill), its parent in lineage; or null
 * @param wave how the steps a backfill wave shares (gates; on the lakehouse, table writes) are carried
 *     out: alone, or gathered across the wave
 * @param tables the tables whose steps (and gates) the job runs, by step name, in spec order; null
 *     for every table. A backfill planned from a changed dataset runs only what the change affects;
 *     a restart of such an attempt runs the same tables (recorded in the job parameters)
 */
public record RunOptions(boolean rerun, @Nullable String requester, @Nullable String traceId, boolean recoverStale,
        @Nullable ParentRun parent, WaveSteps wave, java.util.@Nullable List<String> tables) {

    /** The longest requester kept. */
    public static final int MAX_REQUESTER_CHARS = 200;
    /** The longest trace id accepted. */
    public static final int MAX_TRACE_ID_CHARS = 100;

    /**
     * @throws dev.sluice.core.BadInputException when the trace id is longer than
     *     {@value #MAX_TRACE_ID_CHARS} characters (it would fail the run's record)
     */
    public RunOptions {
        Objects.requireNonNull(wave, "wave");
        requester = requester == null ? null : BoundedText.cut(requester, MAX_REQUESTER_CHARS);
        if (traceId != null && traceId.length() > MAX_TRACE_ID_CHARS) {
            throw new BadInputException("--trace-id", -1, null, "a trace id has at most " + MAX_TRACE_ID_CHARS
                    + " characters; this one has " + traceId.length());
        }
        tables = tables == null ? null : List.copyOf(tables);
    }

    /** Options of a run started on its own (no parent, steps alone, every table). */
    public RunOptions(boolean rerun, @Nullable String requester, @Nullable String traceId, boolean recoverStale) {
        this(rerun, requester, traceId, recoverStale, null, WaveSteps.ALONE, null);
    }

    /** A plain run: attempt 0, or the restart of a failed attempt. */
    public static RunOptions plain() {
        return new RunOptions(false, System.getProperty("user.name"), null, false);
    }

    /** This, with {@code rerun} set. */
    public RunOptions withRerun(boolean value) {
        return new RunOptions(value, requester, traceId, recoverStale, parent, wave, tables);
    }

    /** This, running only {@code only} (table step names; null: every table). */
    public RunOptions withTables(java.util.@Nullable List<String> only) {
        return new RunOptions(rerun, requester, traceId, recoverStale, parent, wave, only);
    }

    /** This, as a child of {@code parentRun} in a wave whose shared steps {@code steps} carries out. */
    public RunOptions withParent(ParentRun parentRun, WaveSteps steps) {
        return new RunOptions(rerun, requester, traceId, recoverStale, parentRun, steps, tables);
    }
}
