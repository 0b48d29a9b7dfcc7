package dev.sluice.batch.job;

import dev.sluice.control.run.RunRecord;
import dev.sluice.control.run.RunRepository;
import dev.sluice.control.run.LineageCounts;
import dev.sluice.control.run.RunStatus;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.batch.bronze.BronzeItemReader;
import dev.sluice.batch.bronze.LandingFiles;
import dev.sluice.batch.contract.ContractGuard;
import dev.sluice.engine.LayerEngine;
import dev.sluice.engine.LayerEngines;
import dev.sluice.batch.gate.GateStep;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.RetrySpec;
import dev.sluice.config.SourceSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Layer;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import dev.sluice.core.SluiceException;
import dev.sluice.lineage.LineageEmitter;
import dev.sluice.lineage.LineageTally;
import dev.sluice.lineage.store.LineageRepository;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.warehouse.meta.ErasureLogTable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceLoader;
import org.jooq.exception.IntegrityConstraintViolationException;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.parameters.JobParameters;
import org.springframework.batch.core.job.parameters.JobParametersBuilder;
import org.springframework.batch.core.launch.JobExecutionAlreadyRunningException;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.infrastructure.item.ExecutionContext;

/**
 * Runs one partition of a pipeline as a Spring Batch job instance identified by (pipeline,
 * partition, attempt):
 * <ul>
 *   <li>a partition never run starts attempt 0;</li>
 *   <li>a FAILED attempt restarts from its failed step, with the same run id;</li>
 *   <li>a COMPLETED partition is refused ({@link RunRefusedException}) unless
 *       {@link RunOptions#rerun()}, which opens the next attempt with a new run id.</li>
 * </ul>
 * Requester, trace id, run id and spec hash are non-identifying job parameters. Every log line of
 * the run carries {@code run_id}, {@code pipeline} and {@code partition} in the MDC. Not for
 * concurrent use on one partition (Spring Batch refuses a second running execution).
 */
public final class PipelineRunner {

    private static final Logger LOG = LoggerFactory.getLogger(PipelineRunner.class);

    /**
     * The key-value a summary warning of a quality check carries in the log event
     * ({@code quality <boundary> <dataset> <check id>}, the line's text before {@code " WARNED: "},
     * see {@link dev.sluice.batch.gate.GateStep#warnings}): the console prints the first of a kind and
     * sums up the rest, the log file keeps every line.
     */
    public static final String WARNING_KIND = "sluice.warning_kind";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Sluice's version, reported in lineage (the jar's Implementation-Version, else "dev"). */
    static final String VERSION = Objects.requireNonNullElse(PipelineRunner.class.getPackage().getImplementationVersion(), "dev");
    /** The job parameter naming the tables an attempt runs (comma-separated step names; empty: every table). */
    static final String TABLES = "tables";

    private final Warehouse warehouse;
    private final BatchInfrastructure batch;
    private final LayerEngines engines;
    private final MedallionJobFactory jobs;
    private final RunRepository runs;
    private final Path home;
    private final List<RunListener> listeners;
    private final LineageTally lineage = new LineageTally();
    private volatile RetryObserver retryObserver = RetryObserver.NONE;

    /**
     * @param home the Sluice home ({@code SLUICE_HOME}); landed files are named relative to it
     */
    public PipelineRunner(Warehouse warehouse, Path home) {
        this.warehouse = warehouse;
        this.batch = BatchInfrastructure.on(warehouse);
        this.engines = LayerEngines.on(warehouse).withStatementListener(RunControl.get()::statements);
        this.jobs = new MedallionJobFactory(warehouse, batch, home, engines);
        this.runs = new RunRepository(warehouse.dsl());
        this.home = home;
        this.listeners = ServiceLoader.load(RunListener.class).stream().map(ServiceLoader.Provider::get).toList();
    }

    /**
     * Runs {@code partition} of {@code spec}.
     *
     * @return the summary; its status is FAILED (with {@link RunSummary#failure()}) when a step failed
     * @throws LandingMissingException when a partitioned source has no landed files for the partition
     * @throws dev.sluice.batch.contract.ContractViolationException when a landed file's columns are
     *     refused by its contract (nothing is written; the drift is recorded)
     * @throws RunRefusedException when the partition is COMPLETED and {@code rerun} is not set, or
     *     an execution of the attempt is still marked running
     */
    public RunSummary run(PipelineSpec spec, Partition partition, RunOptions options) {
        MDC.put("pipeline", spec.name());
        MDC.put("partition", partition.key());
        try {
            return runInContext(spec, partition, options);
        } finally {
            MDC.remove("run_id");
            MDC.remove("pipeline");
            MDC.remove("partition");
        }
    }

    /**
     * One run, in named steps: which tables it runs, what must hold before anything is written,
     * which attempt it is, its record in {@code sluice.run}, the job (with retries) and its end.
     */
    private RunSummary runInContext(PipelineSpec spec, Partition partition, RunOptions requested) {
        Optional<RunRecord> latest = runs.latest(spec.name(), partition);
        RunOptions options = scope(spec, partition, requested, latest);
        prepare(spec, partition, options);
        Attempt attempt = chooseAttempt(spec, partition, options, latest);
        MDC.put("run_id", attempt.run().toString());
        record(spec, partition, options, attempt);
        Executed executed = execute(spec, partition, options, attempt);
        return finish(spec, partition, attempt, executed);
    }

    /** Which attempt a run is: its number, run id, and whether it restarts that attempt. */
    private record Attempt(int number, RunId run, boolean restart) {
    }

    /** The last job execution of a run (after its retries), what its lineage emitters did and the retries' warnings. */
    private record Executed(JobExecution execution, LineageEmitter.Stats lineage, List<String> retried) {
    }

    /**
     * The tables a run runs: a restart runs what its attempt ran; a month of a daily pipeline its
     * rollups only; else what {@code options} names (null: all).
     *
     * @throws SluiceException when the partition's kind has no rollup in the pipeline
     */
    private RunOptions scope(PipelineSpec spec, Partition partition, RunOptions options, Optional<RunRecord> latest) {
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

    /** Logs one summary warning; a quality check's carries its kind ({@link #WARNING_KIND}). */
    private static void logWarning(String warning) {
        int at = warning.indexOf(" WARNED: ");
        var event = LOG.atWarn();
        if (warning.startsWith("quality ") && at > 0) {
            event = event.addKeyValue(WARNING_KIND, warning.substring(0, at));
        }
        event.log("{}", warning);
    }

    /** What must hold before anything is written: landed files, the layer tables, the contracts of the files. */
    private void prepare(PipelineSpec spec, Partition partition, RunOptions options) {
        List<String> only = options.tables();
        boolean loads = only == null || spec.tables(Layer.BRONZE).stream().anyMatch(t -> only.contains(t.stepName()));
        if (loads) {
            checkLanding(spec, partition);
        }
        LayerEngine engine = engines.forPipeline(spec);
        engine.createTables();
        if (loads) {
            new ContractGuard(warehouse.dsl(), home).check(spec, partition, engine);
        }
    }

    /**
     * The attempt a run is: the first (0), the next one ({@code --rerun} after a COMPLETED, FAILED
     * or STOPPED attempt), or a restart of the newest attempt from its failed step.
     *
     * @throws PartitionCompletedException when the partition is COMPLETED and {@code rerun} is not set
     */
    private Attempt chooseAttempt(PipelineSpec spec, Partition partition, RunOptions options, Optional<RunRecord> latest) {
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
                    + " that completed before keep what they wrote", last.attempt(), abbreviate(last.specHash()),
                    abbreviate(spec.hash()));
        }
        return new Attempt(last.attempt(), last.runId(), true);
    }

    /**
     * Records the attempt in {@code sluice.run}: STARTED again for a restart, a new row otherwise.
     *
     * @throws RunRefusedException when another process has just started the same attempt
     */
    private void record(PipelineSpec spec, Partition partition, RunOptions options, Attempt attempt) {
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
     * Launches the job and retries a step that failed with a retriable error, as its
     * {@code execution.retry} allows, until it completes, is stopped or fails otherwise.
     */
    private Executed execute(PipelineSpec spec, Partition partition, RunOptions options, Attempt attempt) {
        RunId run = attempt.run();
        List<String> only = options.tables();
        JobParameters params = new JobParametersBuilder()
                .addString("partition", partition.key(), true)
                .addLong("attempt", (long) attempt.number(), true)
                .addString("run.id", run.toString(), false)
                .addString("spec.hash", spec.hash(), false)
                .addString("requester", String.valueOf(options.requester()), false)
                .addString("trace.id", String.valueOf(options.traceId()), false)
                .addString(TABLES, only == null ? "" : String.join(",", only), false)
                .toJobParameters();
        Launched launched = launch(spec, partition, run, params, attempt.number(), attempt.restart(), options);
        JobExecution execution = launched.execution();
        LineageEmitter.Stats lineageStats = launched.lineage();
        List<String> retried = new ArrayList<>();
        Map<String, Integer> tries = new HashMap<>();
        while (execution.getStatus() != BatchStatus.COMPLETED && RunControl.get().reason(run) == null
                && !RunControl.get().shuttingDown()) {
            StepExecution failed = execution.getStepExecutions().stream().filter(se -> se.getStatus() == BatchStatus.FAILED)
                    .findFirst().orElse(null);
            if (failed == null || failed.getFailureExceptions().isEmpty()
                    || !RetriableErrors.retriable(failed.getFailureExceptions().get(0))) {
                break;
            }
            String step = failed.getStepName();
            RetrySpec policy = spec.execution().retry(step);
            int tried = tries.merge(step, 1, Integer::sum);
            if (tried >= policy.maxAttempts()) {
                retried.add("step " + step + " failed with a retriable error " + tried + " time(s), its execution.retry.max_attempts");
                break;
            }
            Duration wait = policy.delay(tried);
            String why = reason(failed.getFailureExceptions());
            LOG.warn("step {} failed with a retriable error ({}); retry {} of {} in {} ms", step, why, tried, policy.maxAttempts() - 1,
                    wait.toMillis());
            retryObserver.retrying(run, step, tried, wait, failed.getFailureExceptions().get(0));
            if (!pause(wait)) {
                break;
            }
            retried.add("step " + step + " failed with a retriable error (" + why + ") and was retried after " + wait.toMillis() + " ms");
            launched = launch(spec, partition, run, params, attempt.number(), true, options);
            execution = launched.execution();
            lineageStats = lineageStats.plus(launched.lineage());
        }
        return new Executed(execution, lineageStats, retried);
    }

    /** The run's summary (STOPPED with its cause when it was stopped), recorded, logged and told to the listeners. */
    private RunSummary finish(PipelineSpec spec, Partition partition, Attempt attempt, Executed executed) {
        RunControl.Stop stopped = RunControl.get().takeStop(attempt.run());
        JobExecution execution = executed.execution();
        RunSummary summary = summarize(spec, partition, attempt.number(), attempt.run(), attempt.restart(), execution);
        if (stopped != null && !summary.completed()) {
            summary = summary.stopped(stopped.cause(), "stopped: " + stopped.reason() + " (a plain run restarts it from the stopped step)",
                    executed.retried());
        } else if (!executed.retried().isEmpty()) {
            summary = summary.withWarnings(executed.retried());
        }
        runs.finish(attempt.run(), summary.status(), summary.stopCause(), execution.getId(), summary.failure(), toJson(summary),
                counts(executed.lineage()));
        summary.warnings().forEach(PipelineRunner::logWarning);
        notifyListeners(spec, summary);
        LOG.info("attempt {} {} in {} ms", attempt.number(), summary.status(), summary.elapsedMs());
        return summary;
    }

    /** Tells every {@link RunListener} of this runner; a listener's failure is logged, never the run's. */
    private void notifyListeners(PipelineSpec spec, RunSummary summary) {
        for (RunListener l : listeners) {
            try {
                l.finished(spec, summary);
            } catch (RuntimeException e) {
                LOG.warn("run listener {} failed: {}", l.getClass().getName(), e.toString());
            }
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
        RunSummary summary = summarize(spec, partition, last.attempt(), last.runId(), false, done);
        runs.finish(last.runId(), RunStatus.COMPLETED, null, done.getId(), null, toJson(summary), counts(LineageEmitter.Stats.NONE));
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

    /** The first 12 hex digits of a hash and an ellipsis, for messages. */
    public static String abbreviate(String hash) {
        return hash.substring(0, Math.min(12, hash.length())) + "…";
    }

    /** Told before a step is retried; for tests and metrics. */
    public interface RetryObserver {
        /** Tells nothing. */
        RetryObserver NONE = (run, step, retry, wait, cause) -> { };

        /** Step {@code step} of {@code run} failed with {@code cause} and is retried ({@code retry} = 1 first) after {@code wait}. */
        void retrying(RunId run, String step, int retry, Duration wait, Throwable cause);
    }

    /** Tells {@code observer} of each retry from now on; returns this. */
    public PipelineRunner observeRetries(RetryObserver observer) {
        this.retryObserver = Objects.requireNonNull(observer);
        return this;
    }

    /** Waits {@code wait} before a retry; false when the process began to stop meanwhile (no retry then). */
    private static boolean pause(Duration wait) {
        long end = System.nanoTime() + wait.toNanos();
        try {
            while (System.nanoTime() < end) {
                if (RunControl.get().shuttingDown()) {
                    return false;
                }
                Thread.sleep(Math.max(1, Math.min(100, (end - System.nanoTime()) / 1_000_000)));
            }
            return !RunControl.get().shuttingDown();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The tables attempt {@code attempt} of {@code partition} ran, or null for every table. */
    private @Nullable List<String> tablesOf(PipelineSpec spec, Partition partition, int attempt) {
        JobExecution last = batch.repository().getLastJobExecution(spec.name(), identity(partition, attempt));
        if (last == null) {
            return null;
        }
        String tables = last.getJobParameters().getString(TABLES);
        return tables == null || tables.isEmpty() ? null : List.of(tables.split(","));
    }

    private static JobParameters identity(Partition partition, int attempt) {
        return new JobParametersBuilder().addString("partition", partition.key(), true)
                .addLong("attempt", (long) attempt, true).toJobParameters();
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

    /** A job execution and what its lineage emitter did (final: the emitter is closed). */
    private record Launched(JobExecution execution, LineageEmitter.Stats lineage) {
    }

    private Launched launch(PipelineSpec spec, Partition partition, RunId run, JobParameters params, int attempt, boolean restart,
            RunOptions options) {
        try {
            LineageEmitter emitter = lineage.track(LineageEmitter.of(spec.lineage(), VERSION,
                    new LineageRepository(warehouse.dsl())));
            JobExecution execution;
            try (emitter) {
                execution = batch.operator().start(jobs.job(spec, partition, run, emitter, restart, options.parent(), options.wave(),
                        options.tables()), params);
            }
            return new Launched(execution, emitter.stats());
        } catch (JobExecutionAlreadyRunningException e) {
            throw new RunRefusedException("attempt " + attempt + " of partition " + partition + " of pipeline "
                    + spec.name() + " (run " + run + ") has an execution marked running in Spring Batch's repository;"
                    + " wait for it to end, or add --recover-stale if its process is known to be gone.");
        } catch (Exception e) {
            throw new SluiceException("Spring Batch refused to start partition " + partition + ": " + e.getMessage(), e);
        }
    }

    /**
     * Why {@code partition} of {@code spec} cannot run for want of landed files, or empty when
     * every source has files for it.
     */
    public Optional<String> landingProblem(PipelineSpec spec, Partition partition) {
        try {
            checkLanding(spec, partition);
            return Optional.empty();
        } catch (LandingMissingException e) {
            return Optional.of(e.getMessage());
        }
    }

    /** Sluice's version as reported in lineage: the jar's Implementation-Version, else "dev". */
    public static String version() {
        return VERSION;
    }

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

    private RunSummary summarize(PipelineSpec spec, Partition partition, int attempt, RunId run, boolean restart,
            JobExecution execution) {
        List<StepSummary> steps = new ArrayList<>();
        long rowsRead = 0, bronze = 0, silver = 0, collapsed = 0, quarantined = 0, gold = 0;
        List<String> warnings = new ArrayList<>();
        String failure = null;
        Map<String, StepExecution> current = new HashMap<>();
        execution.getStepExecutions().forEach(se -> current.put(se.getStepName(), se));
        for (TableSpec t : spec.tables()) {
            // this execution's steps carry their exceptions; steps completed before a restart come from the repository
            StepExecution se = current.containsKey(t.stepName()) ? current.get(t.stepName())
                    : batch.repository().getLastStepExecution(execution.getJobInstance(), t.stepName());
            if (se == null) {
                continue;
            }
            ExecutionContext ctx = se.getExecutionContext();
            String stepWarnings = ctx.getString(BronzeItemReader.WARNINGS_KEY, "");
            if (!stepWarnings.isEmpty() && se.getJobExecutionId() == execution.getId()) {
                warnings.addAll(List.of(stepWarnings.split("\n")));
            }
            long in = ctx.getLong(StepMetrics.INPUT, 0L);
            long q = ctx.getLong(StepMetrics.QUARANTINED, 0L);
            long c = ctx.getLong(StepMetrics.COLLAPSED, 0L);
            long elapsed = se.getStartTime() == null || se.getEndTime() == null ? 0
                    : Duration.between(se.getStartTime(), se.getEndTime()).toMillis();
            boolean earlier = se.getJobExecutionId() != execution.getId();
            steps.add(new StepSummary(t.stepName(), t.layer(), StepStatus.of(se.getStatus().name()),
                    t.layer() == Layer.BRONZE ? se.getReadCount() : 0, se.getWriteCount(), in, q, c, elapsed, earlier,
                    Boolean.parseBoolean(ctx.getString(StepMetrics.UNCHANGED, "false")), false));
            boolean partitionedData = t.partitioned();
            if (partitionedData && t.layer() == Layer.BRONZE && !earlier) {
                rowsRead += se.getReadCount();
            } else if (partitionedData && t.layer() == Layer.SILVER) {
                bronze += t.inputTable().flatMap(spec::table).filter(i -> i.layer() == Layer.BRONZE).isPresent() ? in : 0;
                silver += se.getWriteCount();
                collapsed += c;
                quarantined += q;
            } else if (partitionedData && t.layer() == Layer.GOLD && !t.isRollup()) { // a rollup rewrites its month: not this partition's rows
                gold += se.getWriteCount();
            }
            if (se.getStatus() == BatchStatus.FAILED && failure == null) {
                failure = "step " + t.stepName() + " failed: " + reason(se.getFailureExceptions());
            }
            if (t.hasGate()) {
                failure = summarizeGate(t, execution, current, steps, warnings, failure);
            }
        }
        if (bronze == 0 && steps.stream().noneMatch(st -> st.layer() == Layer.SILVER && st.status() == StepStatus.COMPLETED)) {
            // Silver did not complete: the Bronze rows are what this attempt's Bronze steps wrote
            bronze = steps.stream().filter(st -> st.layer() == Layer.BRONZE && !st.gate())
                    .filter(st -> spec.table(DatasetRef.parse(st.step())).map(TableSpec::partitioned).orElse(false))
                    .mapToLong(StepSummary::rowsWritten).sum();
        }
        if (rowsRead > 0) {
            int erasures = warehouse.dsl().fetchCount(ErasureLogTable.TABLE, DSL.field(DSL.name("pipeline")).eq(spec.name()));
            if (erasures > 0) {
                warnings.add("this run loaded " + rowsRead + " row(s) from landed files and " + erasures + " erasure request(s) are on"
                        + " record for " + spec.name() + " (" + ErasureLogTable.NAME + "): a landed file can bring an erased value back;"
                        + " repeat those erasures (sluice erase) and ask the source to remove the values");
            }
        }
        if (failure == null && execution.getStatus() != BatchStatus.COMPLETED) {
            failure = "the job ended " + execution.getStatus() + ": " + reason(execution.getAllFailureExceptions());
        }
        long elapsed = execution.getStartTime() == null || execution.getEndTime() == null ? 0
                : Duration.between(execution.getStartTime(), execution.getEndTime()).toMillis();
        RunStatus status = execution.getStatus() == BatchStatus.COMPLETED ? RunStatus.COMPLETED : RunStatus.FAILED;
        return new RunSummary(spec.name(), partition, attempt, run, status, restart, rowsRead, bronze, silver,
                collapsed, quarantined, gold, steps, elapsed, null, failure, warnings);
    }

    /** Adds the gate step of {@code t} (when it ran) to the summary; returns the run's failure so far. */
    private @Nullable String summarizeGate(TableSpec t, JobExecution execution, Map<String, StepExecution> current,
            List<StepSummary> steps, List<String> warnings, @Nullable String failure) {
        String name = GateStep.stepName(t);
        StepExecution g = current.containsKey(name) ? current.get(name)
                : batch.repository().getLastStepExecution(execution.getJobInstance(), name);
        if (g == null) {
            return failure;
        }
        ExecutionContext ctx = g.getExecutionContext();
        boolean earlier = g.getJobExecutionId() != execution.getId();
        long elapsed = g.getStartTime() == null || g.getEndTime() == null ? ctx.getLong(StepMetrics.GATE_ELAPSED_MS, 0L)
                : Duration.between(g.getStartTime(), g.getEndTime()).toMillis();
        steps.add(new StepSummary(name, t.layer(), StepStatus.of(g.getStatus().name()), 0, 0, 0, 0, 0, elapsed, earlier, false, true));
        String w = ctx.getString(StepMetrics.GATE_WARNINGS, "");
        if (!w.isEmpty() && !earlier) {
            warnings.addAll(List.of(w.split("\n")));
        }
        if (g.getStatus() == BatchStatus.FAILED && failure == null) {
            return "step " + name + " failed: " + reason(g.getFailureExceptions());
        }
        return failure;
    }

    /** One paragraph: the message of the first Sluice exception in the causes, else the root cause's. */
    static String reason(List<Throwable> failures) {
        if (failures.isEmpty()) {
            return "no exception was recorded";
        }
        Throwable t = failures.get(0);
        Throwable root = t;
        while (t != null) {
            if (t instanceof SluiceException) {
                return t.getMessage();
            }
            root = t;
            t = t.getCause();
        }
        String m = root.getMessage() == null ? "" : root.getMessage().lines().findFirst().orElse("");
        m = m.replaceFirst(";? *SQL statement:$", "");
        return root.getClass().getSimpleName() + (m.isEmpty() ? "" : ": " + m);
    }

    private static String toJson(RunSummary s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (JsonProcessingException e) {
            return "{}";
        }
    }

    /**
     * The lineage statistics of every emitter this runner (and a {@link dev.sluice.batch.backfill.Backfill}
     * on it) created: the queues of the runs going on, the events of all so far.
     */
    public LineageTally lineage() {
        return lineage;
    }

    /** The Sluice home this runner names landed files against. */
    public Path home() {
        return home;
    }

    /** The warehouse this runner writes to. */
    public Warehouse warehouse() {
        return warehouse;
    }

    /** The layer engine the runs of {@code spec} write with. */
    public dev.sluice.engine.LayerEngine engine(PipelineSpec spec) {
        return engines.forPipeline(spec);
    }


    private static LineageCounts counts(LineageEmitter.Stats lineage) {
        return new LineageCounts(lineage.sent(), lineage.dropped(), lineage.failed());
    }
}
