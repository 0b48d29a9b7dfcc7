package dev.sluice.batch.job;

import dev.sluice.control.run.RunRecord;
import dev.sluice.control.run.RunRepository;
import dev.sluice.control.run.RunStatus;

import dev.sluice.batch.bronze.LandingFiles;
import dev.sluice.batch.contract.ContractGuard;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.SourceSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.Layer;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import dev.sluice.core.SluiceException;
import dev.sluice.engine.LayerEngine;
import dev.sluice.lineage.LineageEmitter;
import dev.sluice.warehouse.Warehouse;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.jooq.exception.IntegrityConstraintViolationException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.parameters.JobParameters;
import org.springframework.batch.core.job.parameters.JobParametersBuilder;

/**
 * Which attempt a run of a partition is, and what must hold before it writes: the tables it runs,
 * the landed files and contracts of its sources, its attempt (the first, the next one, or a restart
 * of the newest from its failed step, after {@code sluice.run} is brought in line with Spring
 * Batch's repository) and that attempt's record in {@code sluice.run}.
 *
 * <p>Logs as {@link PipelineRunner}; puts the run id of the attempt it restarts or reruns into the
 * MDC ({@code run_id}). Not for concurrent use on one partition; thread-safe otherwise.
 */
final class AttemptPlanner {

    private static final Logger LOG = LoggerFactory.getLogger(PipelineRunner.class);

    private final Warehouse warehouse;
    private final BatchInfrastructure batch;
    private final RunRepository runs;
    private final Path home;
    private final RunSummaries summaries;

    AttemptPlanner(Warehouse warehouse, BatchInfrastructure batch, RunRepository runs, Path home,
            RunSummaries summaries) {
        this.warehouse = warehouse;
        this.batch = batch;
        this.runs = runs;
        this.home = home;
        this.summaries = summaries;
    }

    /** Which attempt a run is: its number (0 first), run id, and whether it restarts that attempt. */
    record Attempt(int number, RunId run, boolean restart) {
    }

    /**
     * The tables a run runs: a restart runs what its attempt ran; a month of a daily pipeline its
     * rollups only; else what {@code options} names (null: all).
     *
     * @param latest the partition's newest attempt in {@code sluice.run}, if any
     * @throws SluiceException when the partition's kind has no rollup in the pipeline
     */
    RunOptions scope(PipelineSpec spec, Partition partition, RunOptions options, Optional<RunRecord> latest) {
        if (options.tables() == null && latest.isPresent() && latest.get().status() != RunStatus.COMPLETED && !options.rerun()) {
            options = options.withTables(tablesOf(spec, partition, latest.get().attempt()));
        }
        var kind = partition.kind().orElse(null);
        if (options.tables() == null && kind != null && kind != spec.partitionKind()) {
            List<String> rollups = spec.tables().stream().filter(t -> t.rollup() == kind).map(TableSpec::stepName).toList();
            if (rollups.isEmpty()) {
                throw new SluiceException("partition " + partition + " is a " + kind.id() + " partition; pipeline " + spec.name()
                        + " is partitioned " + spec.partitionKind().id() + " and has no " + kind.id() + " rollup");
            }
            options = options.withTables(rollups);
        }
        return options;
    }

    /**
     * What must hold before anything is written: landed files, the layer tables, the contracts of the files.
     *
     * @throws LandingMissingException when a source loaded by the run has no landed files for the partition
     * @throws dev.sluice.batch.contract.ContractViolationException when a landed file's columns are refused by its contract
     */
    void prepare(LayerEngine engine, PipelineSpec spec, Partition partition, RunOptions options) {
        List<String> only = options.tables();
        boolean loads = only == null || spec.tables(Layer.BRONZE).stream().anyMatch(t -> only.contains(t.stepName()));
        if (loads) {
            checkLanding(spec, partition);
        }
        engine.createTables();
        if (loads) {
            new ContractGuard(warehouse.dsl(), home).check(spec, partition, engine);
        }
    }

    /**
     * The attempt a run is: the first (0), the next one ({@code --rerun} after a COMPLETED, FAILED
     * or STOPPED attempt), or a restart of the newest attempt from its failed step.
     *
     * @param latest the partition's newest attempt in {@code sluice.run}, if any
     * @throws PartitionCompletedException when the partition is COMPLETED and {@code rerun} is not set
     * @throws RunRefusedException when the newest attempt is running (not left by a killed process
     *     on this host, and {@code recoverStale} not set)
     */
    Attempt choose(PipelineSpec spec, Partition partition, RunOptions options, Optional<RunRecord> latest) {
        if (latest.isEmpty()) {
            return new Attempt(0, RunId.newId(), false);
        }
        RunRecord last = reconcile(spec, partition, latest.get());
        MDC.put("run_id", last.runId().toString());
        if (last.status() == RunStatus.COMPLETED) {
            if (!options.rerun()) {
                throw new PartitionCompletedException("partition " + partition + " of pipeline " + spec.name()
                        + " is already COMPLETED (attempt " + last.attempt() + ", run " + last.runId()
                        + ", ended " + last.endedAt() + "). Running it again is refused so that a repeated"
                        + " command cannot re-load by accident; add --rerun to open attempt "
                        + (last.attempt() + 1) + ".");
            }
            return new Attempt(last.attempt() + 1, RunId.newId(), false);
        }
        if (options.rerun() && last.status().restartable()) {
            abandon(spec, partition, last);
            return new Attempt(last.attempt() + 1, RunId.newId(), false);
        }
        if (last.status() == RunStatus.STARTED) {
            claimStarted(spec, partition, last, options.recoverStale());
        }
        if (!last.specHash().equals(spec.hash())) {
            LOG.warn("the spec or a contract changed since attempt {} started (sha256 {} → {}): the steps"
                    + " that completed before keep what they wrote", last.attempt(), PipelineRunner.abbreviate(last.specHash()),
                    PipelineRunner.abbreviate(spec.hash()));
        }
        return new Attempt(last.attempt(), last.runId(), true);
    }

    /**
     * Records the attempt in {@code sluice.run}: STARTED again for a restart, a new row otherwise.
     *
     * @throws RunRefusedException when another process has just started the same attempt
     */
    void record(PipelineSpec spec, Partition partition, RunOptions options, Attempt attempt) {
        if (attempt.restart()) {
            LOG.info("restarting attempt {} from its failed step", attempt.number());
            runs.restart(attempt.run(), spec.hash());
            return;
        }
        LOG.info("starting attempt {}", attempt.number());
        try {
            runs.start(attempt.run(), spec.name(), partition, attempt.number(), spec.hash(), options.requester(), options.traceId());
        } catch (IntegrityConstraintViolationException e) {
            throw new RunRefusedException("another process has just started attempt " + attempt.number()
                    + " of partition " + partition + " of pipeline " + spec.name());
        }
    }

    /**
     * Brings {@code sluice.run} in line with Spring Batch's repository: a process killed after its
     * job completed but before it recorded the run leaves the attempt STARTED or FAILED here and
     * COMPLETED there; the job's record wins.
     */
    private RunRecord reconcile(PipelineSpec spec, Partition partition, RunRecord last) {
        if (last.status() == RunStatus.COMPLETED) {
            return last;
        }
        JobExecution done = batch.repository().getLastJobExecution(spec.name(), identity(partition, last.attempt()));
        if (done == null || done.getStatus() != BatchStatus.COMPLETED) {
            return last;
        }
        LOG.warn("attempt {} of {} completed in Spring Batch but was recorded {}: recording COMPLETED",
                last.attempt(), partition, last.status());
        RunSummary summary = summaries.summarize(spec, partition, last.attempt(), last.runId(), false, done);
        runs.finish(last.runId(), RunStatus.COMPLETED, null, done.getId(), null, RunSummaries.toJson(summary),
                RunSummaries.counts(LineageEmitter.Stats.NONE));
        return runs.latest(spec.name(), partition).orElse(last);
    }

    /** Gives up a FAILED attempt for good (Spring Batch: ABANDONED) so that --rerun can open the next. */
    private void abandon(PipelineSpec spec, Partition partition, RunRecord last) {
        JobExecution failed = batch.repository().getLastJobExecution(spec.name(), identity(partition, last.attempt()));
        if (failed != null && (failed.getStatus() == BatchStatus.FAILED || failed.getStatus() == BatchStatus.STOPPED)) {
            try {
                batch.operator().abandon(failed);
            } catch (Exception e) {
                throw new SluiceException("cannot abandon the failed attempt " + last.attempt() + ": " + e.getMessage(), e);
            }
        }
        runs.abandon(last.runId());
        LOG.info("abandoned failed attempt {} (run {}) for --rerun", last.attempt(), last.runId());
    }

    /**
     * An attempt marked STARTED is either running (refused) or was left by a killed process on
     * this host: then its Spring Batch execution is recovered (marked FAILED) so that it restarts
     * from its unfinished step.
     */
    private void claimStarted(PipelineSpec spec, Partition partition, RunRecord last, boolean recoverStale) {
        if (!recoverStale && !last.isOrphaned(RunRepository.thisHost())) {
            throw new RunRefusedException("attempt " + last.attempt() + " of partition " + partition + " of pipeline "
                    + spec.name() + " is running (run " + last.runId() + ", process " + last.pid() + " on "
                    + last.host() + ", started " + last.startedAt() + "); wait for it to end. If that process is"
                    + " known to be gone (another host, a replaced container), add --recover-stale to restart the attempt.");
        }
        LOG.warn("attempt {} was left STARTED by process {} on {}, which is gone: recovering it", last.attempt(),
                last.pid(), last.host());
        JobExecution stale = batch.repository().getLastJobExecution(spec.name(), identity(partition, last.attempt()));
        if (stale != null && stale.isRunning()) {
            batch.operator().recover(stale);
        }
    }

    /** The tables attempt {@code attempt} of {@code partition} ran, or null for every table. */
    private @Nullable List<String> tablesOf(PipelineSpec spec, Partition partition, int attempt) {
        JobExecution last = batch.repository().getLastJobExecution(spec.name(), identity(partition, attempt));
        if (last == null) {
            return null;
        }
        String tables = last.getJobParameters().getString(PipelineRunner.TABLES);
        return tables == null || tables.isEmpty() ? null : List.of(tables.split(","));
    }

    /** The identifying job parameters of attempt {@code attempt} of {@code partition}. */
    private static JobParameters identity(Partition partition, int attempt) {
        return new JobParametersBuilder().addString("partition", partition.key(), true)
                .addLong("attempt", (long) attempt, true).toJobParameters();
    }

    /**
     * Why {@code partition} of {@code spec} cannot run for want of landed files, or empty when
     * every source has files for it.
     */
    Optional<String> landingProblem(PipelineSpec spec, Partition partition) {
        try {
            checkLanding(spec, partition);
            return Optional.empty();
        } catch (LandingMissingException e) {
            return Optional.of(e.getMessage());
        }
    }

    /** @throws LandingMissingException when a source has no landed files for {@code partition}, or they cannot be listed */
    private void checkLanding(PipelineSpec spec, Partition partition) {
        for (SourceSpec s : spec.sources()) {
            Path path = s.pathFor(partition);
            if (!landingFiles(path).isEmpty()) {
                continue;
            }
            Path landing = home.resolve("landing");
            String hint = Files.isDirectory(landing) ? "" : " The landing zone " + landing
                    + " does not exist either: `sluice sample-data` fetches the sample data and lays it out there.";
            throw new LandingMissingException("no landed files for source '" + s.name() + "'"
                    + (s.partitioned() ? " and partition " + partition : "") + ": " + path
                    + (Files.isDirectory(path) ? " is empty." : " does not exist.") + hint);
        }
    }

    private static List<Path> landingFiles(Path path) {
        try {
            return LandingFiles.list(path);
        } catch (IOException e) {
            throw new LandingMissingException("cannot list the landed files at " + path + ": " + e.getMessage());
        }
    }
}
