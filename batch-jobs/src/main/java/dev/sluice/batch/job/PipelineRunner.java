package dev.sluice.batch.job;

import dev.sluice.control.run.RunRecord;
import dev.sluice.control.run.RunRepository;

import dev.sluice.config.PipelineSpec;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import dev.sluice.engine.LayerEngine;
import dev.sluice.engine.LayerEngines;
import dev.sluice.lineage.LineageTally;
import dev.sluice.warehouse.Warehouse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceLoader;
import org.slf4j.MDC;

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
 *
 * <p>A facade over the run's parts: {@link AttemptPlanner} (which attempt, landing and contract
 * checks, its record in {@code sluice.run}), {@link RetryLoop} (the job and its retries) and
 * {@link RunSummaries} (the summary, recorded, logged and told to the {@link RunListener}s). Their
 * log lines all name this class's logger.
 */
public final class PipelineRunner {

    /**
     * The key-value a summary warning of a quality check carries in the log event
     * ({@code quality <boundary> <dataset> <check id>}, the line's text before {@code " WARNED: "},
     * see {@link dev.sluice.batch.gate.GateStep#warnings}): the console prints the first of a kind and
     * sums up the rest, the log file keeps every line.
     */
    public static final String WARNING_KIND = "sluice.warning_kind";
    /** Sluice's version, reported in lineage (the jar's Implementation-Version, else "dev"). */
    static final String VERSION = Objects.requireNonNullElse(PipelineRunner.class.getPackage().getImplementationVersion(), "dev");
    /** The job parameter naming the tables an attempt runs (comma-separated step names; empty: every table). */
    static final String TABLES = "tables";

    private final Warehouse warehouse;
    private final LayerEngines engines;
    private final RunRepository runs;
    private final Path home;
    private final LineageTally lineage = new LineageTally();
    private final AttemptPlanner attempts;
    private final RetryLoop retries;
    private final RunSummaries summaries;

    /**
     * @param home the Sluice home ({@code SLUICE_HOME}); landed files are named relative to it
     */
    public PipelineRunner(Warehouse warehouse, Path home) {
        this.warehouse = warehouse;
        BatchInfrastructure batch = BatchInfrastructure.on(warehouse);
        this.engines = LayerEngines.on(warehouse).withStatementListener(RunControl.get()::statements);
        MedallionJobFactory jobs = new MedallionJobFactory(warehouse, batch, home, engines);
        this.runs = new RunRepository(warehouse.dsl());
        this.home = home;
        List<RunListener> listeners = ServiceLoader.load(RunListener.class).stream().map(ServiceLoader.Provider::get).toList();
        this.summaries = new RunSummaries(warehouse, batch, runs, listeners);
        this.attempts = new AttemptPlanner(warehouse, batch, runs, home, summaries);
        this.retries = new RetryLoop(warehouse, batch, jobs, lineage);
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
        RunOptions options = attempts.scope(spec, partition, requested, latest);
        LayerEngine engine = engines.forPipeline(spec); // one instance serves the run: preparation, every step and gate
        attempts.prepare(engine, spec, partition, options);
        AttemptPlanner.Attempt attempt = attempts.choose(spec, partition, options, latest);
        MDC.put("run_id", attempt.run().toString());
        attempts.record(spec, partition, options, attempt);
        RetryLoop.Executed executed = retries.execute(engine, spec, partition, options, attempt);
        return summaries.finish(spec, partition, attempt, executed);
    }

    /**
     * Why {@code partition} of {@code spec} cannot run for want of landed files, or empty when
     * every source has files for it.
     */
    public Optional<String> landingProblem(PipelineSpec spec, Partition partition) {
        return attempts.landingProblem(spec, partition);
    }

    /** Sluice's version as reported in lineage: the jar's Implementation-Version, else "dev". */
    public static String version() {
        return VERSION;
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
        retries.observe(observer);
        return this;
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
    public LayerEngine engine(PipelineSpec spec) {
        return engines.forPipeline(spec);
    }
}
