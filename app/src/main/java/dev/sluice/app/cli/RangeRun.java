package dev.sluice.app.cli;

import dev.sluice.app.console.ProgressDisplay;
import dev.sluice.app.console.TerminalLines;
import dev.sluice.batch.backfill.PartitionOutcome;
import dev.sluice.control.backfill.PartitionStatus;
import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunControl;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.BadInputException;
import dev.sluice.core.Partition;
import dev.sluice.core.SluiceException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs each daily partition of an inclusive date range in order, with a progress bar (log lines print
 * above it). A COMPLETED partition is skipped (unless rerun); a failure does not stop the partitions
 * after it.
 */
final class RangeRun {

    private RangeRun() {
    }

    /**
     * The outcomes of a range run, in partition order.
     *
     * @param warnings warnings and errors the log printed on the terminal meanwhile (above the bar)
     * @param repeated one line per kind of warning seen more than once, the later ones not printed
     *     ({@link ProgressDisplay#repeatedWarnings()})
     */
    record Result(List<PartitionOutcome> outcomes, long warnings, List<String> repeated) {
    }

    /** Runs {@code from} … {@code to} with a progress bar on {@code terminal}. */
    static Result run(PipelineRunner runner, PipelineSpec spec, LocalDate from, LocalDate to,
            RunOptions options, TerminalLines terminal) {
        List<PartitionOutcome> outcomes = new ArrayList<>();
        long days = to.toEpochDay() - from.toEpochDay() + 1;
        try (ProgressDisplay bar = new ProgressDisplay(spec.name(), days, terminal)) {
            for (LocalDate d = from; !d.isAfter(to); d = d.plusDays(1)) {
                Partition p = Partition.daily(d);
                bar.message(p.key() + " running");
                PartitionOutcome o = RunControl.get().shuttingDown()
                        ? PartitionOutcome.notStarted(p, "the process is shutting down")
                        : one(runner, spec, p, options);
                outcomes.add(o);
                bar.step(p.key() + " " + o.status());
            }
            return new Result(outcomes, bar.warnings(), bar.repeatedWarnings());
        }
    }

    private static PartitionOutcome one(PipelineRunner runner, PipelineSpec spec, Partition p, RunOptions options) {
        try {
            return PartitionOutcome.ran(runner.run(spec, p, options));
        } catch (BadInputException e) {
            // refused before any write (a contract refusal, an unreadable file): exit 2, as for the partition alone
            return new PartitionOutcome(p, PartitionStatus.INVALID, null, e.getMessage());
        } catch (SluiceException e) {
            return PartitionOutcome.threw(p, e, "already COMPLETED (--rerun re-runs it)");
        }
    }
}
