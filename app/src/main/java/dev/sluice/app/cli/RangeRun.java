package dev.sluice.app.cli;

import dev.sluice.batch.backfill.PartitionOutcome;
import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.batch.job.RunSummary;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.Partition;
import dev.sluice.core.SluiceException;
import java.io.PrintStream;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Runs each daily partition of an inclusive date range in order, with a progress bar. A COMPLETED
 * partition is skipped (unless rerun); a failure does not stop the partitions after it.
 */
final class RangeRun {

    private RangeRun() {
    }

    static List<PartitionOutcome> run(PipelineRunner runner, PipelineSpec spec, LocalDate from, LocalDate to,
            RunOptions options, PrintStream progressStream) {
        List<PartitionOutcome> outcomes = new ArrayList<>();
        long days = to.toEpochDay() - from.toEpochDay() + 1;
        try (ProgressBar bar = new ProgressBarBuilder().setTaskName(spec.name()).setInitialMax(days)
                .setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis(500).showSpeed()
                .setConsumer(new ConsoleProgressBarConsumer(progressStream)).build()) {
            for (LocalDate d = from; !d.isAfter(to); d = d.plusDays(1)) {
                Partition p = Partition.daily(d);
                bar.setExtraMessage(" " + p.key());
                outcomes.add(dev.sluice.batch.job.RunControl.get().shuttingDown()
                        ? new PartitionOutcome(p, "STOPPED", null, "not started: the process is shutting down")
                        : one(runner, spec, p, options));
                bar.step();
            }
        }
        return outcomes;
    }

    private static PartitionOutcome one(PipelineRunner runner, PipelineSpec spec, Partition p, RunOptions options) {
        try {
            RunSummary s = runner.run(spec, p, options);
            return new PartitionOutcome(p, s.status(), s, "");
        } catch (dev.sluice.batch.job.PartitionCompletedException e) {
            return new PartitionOutcome(p, "SKIPPED", null, "already COMPLETED (--rerun re-runs it)");
        } catch (dev.sluice.batch.job.RunRefusedException e) {
            return new PartitionOutcome(p, "REFUSED", null, e.getMessage());
        } catch (dev.sluice.batch.job.LandingMissingException e) {
            return new PartitionOutcome(p, "MISSING", null, e.getMessage());
        } catch (dev.sluice.core.BadInputException e) {
            // refused before any write (a contract refusal, an unreadable file): exit 2, as for the partition alone
            return new PartitionOutcome(p, "INVALID", null, e.getMessage());
        } catch (SluiceException e) {
            return new PartitionOutcome(p, "FAILED", null, e.getMessage());
        }
    }
}
