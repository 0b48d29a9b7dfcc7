package dev.sluice.batch.job;

import dev.sluice.engine.BronzeColumns;
import dev.sluice.batch.bronze.BronzeItemReader;
import dev.sluice.batch.bronze.BronzeItemWriter;
import dev.sluice.engine.BronzeRow;
import dev.sluice.engine.BronzeSink;
import dev.sluice.control.landing.LandedFileRepository;
import dev.sluice.batch.contract.ContractGuard;
import dev.sluice.engine.LayerEngine;
import dev.sluice.engine.LayerEngines;
import dev.sluice.engine.StagedWrite;
import dev.sluice.engine.TransformResult;
import dev.sluice.batch.wave.WaveSteps;
import dev.sluice.batch.gate.GateFailedException;
import dev.sluice.batch.gate.GateStep;
import dev.sluice.control.quality.QualityResultRepository;
import dev.sluice.batch.reconcile.Reconciliation;
import dev.sluice.config.ColumnSpec;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.ReconcileSpec;
import dev.sluice.config.SourceSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.FaultPoints;
import dev.sluice.core.Layer;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import dev.sluice.core.SluiceException;
import dev.sluice.lineage.LineageEmitter;
import dev.sluice.quality.GateResult;
import dev.sluice.quality.QualityGate;
import dev.sluice.warehouse.Warehouse;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.batch.core.BatchStatus;
import org.springframework.batch.core.ExitStatus;
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.builder.JobBuilder;
import org.springframework.batch.core.job.builder.SimpleJobBuilder;
import org.springframework.batch.core.listener.JobExecutionListener;
import org.springframework.batch.core.listener.StepExecutionListener;
import org.springframework.batch.core.step.Step;
import org.springframework.batch.core.step.StepExecution;
import org.springframework.batch.core.step.builder.StepBuilder;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.repeat.RepeatStatus;

/**
 * Builds the medallion job of one pipeline partition: one step per layer table, in spec order
 * (Bronze chunk steps, then Silver and Gold tasklet steps), each table with quality checks followed
 * by its gate step {@code gate.<table>}. Step names are the tables' qualified
 * names. What each step writes, publishes and hands its gate is the pipeline's {@link LayerEngine}'s
 * ({@link LayerEngines#forPipeline}): Bronze appends through its sink, each Silver/Gold step writes a
 * partition version in the step's transaction. A failed job restarts from its failed step.
 * Thread-safe.
 */
public final class MedallionJobFactory {

    private static final Logger LOG = LoggerFactory.getLogger(MedallionJobFactory.class);

    private final Warehouse warehouse;
    private final BatchInfrastructure batch;
    private final Path home;
    private final ContractGuard guard;
    private final LayerEngines engines;

    /**
     * @param home the Sluice home; {@code _source} names files relative to it
     * @param engines where each pipeline's layer engine comes from
     */
    public MedallionJobFactory(Warehouse warehouse, BatchInfrastructure batch, Path home, LayerEngines engines) {
        this.warehouse = warehouse;
        this.batch = batch;
        this.home = home;
        this.guard = new ContractGuard(warehouse.dsl(), home);
        this.engines = engines;
    }

    /** The job of {@code partition} of {@code spec}, run as {@code run}, without lineage. */
    public Job job(PipelineSpec spec, Partition partition, RunId run) {
        return job(engines.forPipeline(spec), spec, partition, run, LineageEmitter.NOOP, false, null, WaveSteps.ALONE, null);
    }

    /**
     * The job of {@code partition} of {@code spec}, run as {@code run}, its lineage sent to
     * {@code lineage}; {@code restart} when it resumes a failed attempt (a new OpenLineage run).
     *
     * @param engine the run's layer engine (one instance serves a run: its preparation, every step and gate)
     * @param parent the run that started this one (a backfill), its parent in lineage; or null
     * @param wave how the steps a backfill wave shares are carried out: its gate steps (a rollup's
     *     gate is always evaluated alone: the partitions of a wave share its partition) and, on an
     *     engine that writes waves, its Silver/Gold steps
     * @param only the tables to run (step names), or null for every table
     */
    public Job job(LayerEngine engine, PipelineSpec spec, Partition partition, RunId run, LineageEmitter lineage, boolean restart,
            @Nullable ParentRun parent, WaveSteps wave, @Nullable Collection<String> only) {
        LineageListener events = new LineageListener(lineage, spec, partition, run, home, warehouse, restart, parent, engine);
        List<Step> steps = new ArrayList<>();
        for (TableSpec t : spec.tables()) {
            if (only != null && !only.contains(t.stepName())) {
                continue;
            }
            Step step = t.layer() == Layer.BRONZE ? bronzeStep(spec, engine, t, partition, run, events.step(t, false))
                    : transformStep(spec, engine, t, partition, run, events.step(t, false), wave);
            steps.add(step);
            if (t.hasGate()) {
                steps.add(gateStep(spec, engine, t, partition, run, events.step(t, true),
                        t.isRollup() ? WaveSteps.ALONE : wave));
            }
        }
        if (steps.isEmpty()) {
            throw new SluiceException("no table of pipeline " + spec.name() + " is among " + only);
        }
        ReconcileSpec reconcile = spec.hotPath() == null ? null : spec.hotPath().reconcile();
        if (reconcile != null && (only == null || only.contains(reconcile.against().qualifiedName()))) {
            steps.add(reconcileStep(spec, partition, run));
        }
        SimpleJobBuilder b = new JobBuilder(spec.name(), batch.repository()).listener(events).listener(control(spec, run))
                .start(steps.get(0));
        for (Step s : steps.subList(1, steps.size())) {
            b = b.next(s);
        }
        return b.build();
    }

    private Step bronzeStep(PipelineSpec spec, LayerEngine engine, TableSpec table, Partition partition, RunId run,
            StepExecutionListener lineage) {
        SourceSpec source = spec.source(table.source()).orElseThrow();
        Partition p = source.partitioned() ? partition : Partition.NONE;
        LandedFileRepository landed = new LandedFileRepository(warehouse.dsl());
        String name = table.table().qualifiedName();
        List<ColumnSpec> columnsRead = guard.bronzeColumns(spec, source);
        BronzeColumns columns = BronzeColumns.of(table.table(), columnsRead, p, run,
                OffsetDateTime.now(ZoneOffset.UTC));
        BronzeSink sink = engine.bronzeSink(columns);
        BronzeItemWriter writer = new BronzeItemWriter(sink, landed, name, p);
        return new StepBuilder(name, batch.repository())
                .<BronzeRow, BronzeRow>chunk(spec.batchRows())
                .transactionManager(warehouse.transactionManager())
                .reader(new BronzeItemReader(spec.name(), name, source, columnsRead, p, run, home, landed, engine::committed,
                        spec.maxLineBytes()))
                .writer(chunk -> {
                    RunControl.get().throwIfStopped(run);
                    writer.write(chunk);
                    FaultPoints.reach("bronze-chunk:" + name);
                })
                .listener(boundary(spec, run, name))
                .listener(snapshotLock(!source.partitioned(), name))
                .listener(lineage)
                .listener(loaded(engine, table, p))
                .build();
    }

    /** Tells the engine when the Bronze step completed its partition's load ({@link LayerEngine#bronzeLoaded}). */
    private static StepExecutionListener loaded(LayerEngine engine, TableSpec table, Partition p) {
        return new StepExecutionListener() {
            @Override
            public ExitStatus afterStep(StepExecution stepExecution) {
                if (stepExecution.getStatus() == org.springframework.batch.core.BatchStatus.COMPLETED) {
                    engine.bronzeLoaded(table, p);
                }
                return null;
            }
        };
    }

    /**
     * The name of the lock a snapshot's or rollup's writers take in this JVM (runs of other partitions
     * write the same table partition): the table's step, and for a rollup its output partition.
     */
    private static String writeLock(TableSpec table, Partition partition) {
        return table.isRollup() ? table.stepName() + "@" + table.outputPartition(partition) : table.stepName();
    }

    /** Holds the table's snapshot lock during the step when {@code snapshot}, else does nothing. */
    private StepExecutionListener snapshotLock(boolean snapshot, String table) {
        return snapshot ? SnapshotLocks.holding(warehouse.spec().url(), table)
                : new StepExecutionListener() { };
    }

    /** Registers the job with {@link RunControl} (timeouts, cancel requests, shutdown) while it runs. */
    private JobExecutionListener control(PipelineSpec spec, RunId run) {
        return new JobExecutionListener() {
            @Override
            public void beforeJob(JobExecution jobExecution) {
                RunControl.get().started(run, spec, warehouse.dsl(), batch.operator(), jobExecution);
            }

            @Override
            public void afterJob(JobExecution jobExecution) {
                RunControl.get().ended(run);
            }
        };
    }

    /**
     * A listener that reaches the fault point {@code before:<step>} as the step starts, and tells
     * {@link RunControl} the step's timeout while it runs.
     */
    private static StepExecutionListener boundary(PipelineSpec spec, RunId run, String step) {
        return new StepExecutionListener() {
            @Override
            public void beforeStep(StepExecution stepExecution) {
                RunControl.get().stepStarted(run, step, spec.execution().timeout(step));
                FaultPoints.reach("before:" + step);
            }

            @Override
            public ExitStatus afterStep(StepExecution stepExecution) {
                RunControl.get().stepEnded(run);
                return null;
            }
        };
    }

    /**
     * The quality gate of {@code table}: judges what its step wrote (evaluated as the step starts,
     * outside the step's transaction, so that a backfill can gather it with other partitions'),
     * then records the results and publishes when no error check failed.
     */
    private Step gateStep(PipelineSpec spec, LayerEngine engine, TableSpec table, Partition partition, RunId run,
            StepExecutionListener lineage, WaveSteps wave) {
        String name = GateStep.stepName(table);
        GateStep gate = new GateStep(warehouse, engine, spec, table, QualityGate.deequ(spec.sparkMaster()));
        AtomicReference<GateStep.Request> request = new AtomicReference<>();
        AtomicReference<GateResult> evaluated = new AtomicReference<>();
        StepExecutionListener evaluation = new StepExecutionListener() {
            @Override
            public void beforeStep(StepExecution stepExecution) {
                Long counted = countedInput(stepExecution, table);
                // a refused or pruned version of a snapshot or rollup is rebuilt here: under the lock its table's step takes
                GateStep.Request r = table.partitioned() && !table.isRollup() ? gate.prepare(partition, run, counted)
                        : SnapshotLocks.with(warehouse.spec().url(), writeLock(table, partition), () -> gate.prepare(partition, run, counted));
                request.set(r);
                evaluated.set(wave.evaluate(gate, name, r));
            }

            @Override
            public ExitStatus afterStep(StepExecution stepExecution) {
                // the publication's transaction has committed; the step is not yet recorded COMPLETED
                if (stepExecution.getStatus() == BatchStatus.COMPLETED && request.get() != null
                        && request.get().version() != null) {
                    FaultPoints.reach("published:" + table.stepName());
                }
                return null;
            }
        };
        return new StepBuilder(name, batch.repository())
                .tasklet((contribution, context) -> {
                    GateResult r = gate.finish(request.get(), evaluated.get());
                    ExecutionContext ctx = contribution.getStepExecution().getExecutionContext();
                    ctx.putString(StepMetrics.GATE_WARNINGS, String.join("\n", GateStep.warnings(r)));
                    ctx.putLong(StepMetrics.GATE_CHECKS, r.checks().size());
                    ctx.putLong(StepMetrics.GATE_ELAPSED_MS, r.elapsedMs());
                    return RepeatStatus.FINISHED;
                }, warehouse.transactionManager())
                .listener(boundary(spec, run, name))
                .listener(lineage)
                .listener(evaluation)
                .build();
    }

    /**
     * The input rows {@code table}'s step counted in the job execution of {@code gateStep}, null
     * when that execution did not run the step (a restart after it completed, Bronze) or the step
     * was deferred to its wave's writer.
     */
    private static @Nullable Long countedInput(StepExecution gateStep, TableSpec table) {
        return gateStep.getJobExecution().getStepExecutions().stream()
                .filter(s -> s.getStepName().equals(table.table().qualifiedName()) && s.getStatus() == BatchStatus.COMPLETED)
                .map(s -> s.getExecutionContext())
                .filter(ctx -> ctx.containsKey(StepMetrics.INPUT))
                .map(ctx -> ctx.getLong(StepMetrics.INPUT))
                .findFirst().orElse(null);
    }

    /**
     * {@code reconcile.<live table>}, last: the hot path's live windows of the partition against the
     * batch mart just published, recorded as a quality result; fails the run only for
     * {@code severity: error}.
     */
    private Step reconcileStep(PipelineSpec spec, Partition partition, RunId run) {
        ReconcileSpec r = spec.hotPath().reconcile();
        String name = "reconcile." + r.window().qualifiedName();
        AtomicReference<GateResult> result = new AtomicReference<>();
        StepExecutionListener compare = new StepExecutionListener() {
            @Override
            public void beforeStep(StepExecution stepExecution) {
                // outside the step's transaction: the result is recorded even when it fails the step
                GateResult g = Reconciliation.run(warehouse.dsl(), spec, partition);
                new QualityResultRepository(warehouse.dsl()).save(spec.name(), run, g);
                result.set(g);
            }
        };
        return new StepBuilder(name, batch.repository())
                .tasklet((contribution, context) -> {
                    RunControl.get().throwIfStopped(run);
                    GateResult g = result.get();
                    ExecutionContext ctx = contribution.getStepExecution().getExecutionContext();
                    ctx.putString(StepMetrics.GATE_WARNINGS, String.join("\n", GateStep.warnings(g)));
                    ctx.putLong(StepMetrics.GATE_CHECKS, g.checks().size());
                    ctx.putLong(StepMetrics.GATE_ELAPSED_MS, g.elapsedMs());
                    if (!g.passed()) {
                        throw new GateFailedException(g.checks().get(0).message());
                    }
                    return RepeatStatus.FINISHED;
                }, warehouse.transactionManager())
                .listener(boundary(spec, run, name))
                .listener(compare)
                .build();
    }

    /**
     * A Silver/Gold table's step: one partition version written by the engine in the step's
     * transaction (its statements can be cancelled by a stop: timeout, sluice cancel, shutdown), or,
     * when the wave's one job wrote it as the step started ({@link WaveSteps#stage}), recorded in it.
     */
    private Step transformStep(PipelineSpec spec, LayerEngine engine, TableSpec table, Partition partition, RunId run,
            StepExecutionListener lineage, WaveSteps wave) {
        AtomicReference<StagedWrite> staged = new AtomicReference<>();
        StepExecutionListener staging = new StepExecutionListener() {
            @Override
            public void beforeStep(StepExecution stepExecution) {
                // outside the step's transaction, like a gate's evaluation: the wave's members wait for each other here
                StagedWrite s;
                try {
                    s = wave.stage(engine, table, partition, run);
                } catch (RuntimeException e) {
                    s = () -> {
                        throw e;
                    };
                }
                staged.set(s);
            }
        };
        return new StepBuilder(table.table().qualifiedName(), batch.repository())
                .tasklet((contribution, context) -> {
                    RunControl.get().throwIfStopped(run);
                    StagedWrite s = staged.getAndSet(null);
                    ExecutionContext ctx = contribution.getStepExecution().getExecutionContext();
                    // a restarted step starts from the failed execution's context: its figures are not this execution's
                    StepMetrics.TRANSFORM.forEach(ctx::remove);
                    if (s instanceof WaveSteps.Deferred d) {
                        ctx.putString(StepMetrics.DEFERRED_TO, d.writer().key());
                        LOG.info("{}@{}: rebuilt once for the backfill wave, by the run of partition {}", table.stepName(), d.rollup().key(),
                                d.writer().key());
                        return RepeatStatus.FINISHED;
                    }
                    TransformResult r = s != null ? s.record() : engine.write(table, partition, run);
                    ctx.putLong(StepMetrics.INPUT, r.inputRows());
                    ctx.putLong(StepMetrics.OUTPUT, r.outputRows());
                    ctx.putLong(StepMetrics.QUARANTINED, r.quarantined());
                    ctx.putLong(StepMetrics.COLLAPSED, r.collapsed());
                    ctx.putInt(StepMetrics.VERSION, r.version());
                    ctx.putString(StepMetrics.UNCHANGED, Boolean.toString(r.unchanged()));
                    contribution.incrementWriteCount(r.outputRows());
                    FaultPoints.reach("in-transaction:" + table.stepName());
                    return RepeatStatus.FINISHED;
                }, warehouse.transactionManager())
                .listener(boundary(spec, run, table.stepName()))
                .listener(lineage)
                // the wave's members meet before a rollup's month lock is taken: a member holding it must never wait for the others
                .listener(staging)
                .listener(snapshotLock(!table.partitioned() || table.isRollup(), writeLock(table, partition)))
                .build();
    }
}
