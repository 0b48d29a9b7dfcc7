package dev.sluice.batch.job;

import dev.sluice.core.FaultPoints;
import dev.sluice.batch.bronze.BronzeColumns;
import dev.sluice.batch.bronze.BronzeItemReader;
import dev.sluice.batch.bronze.BronzeItemWriter;
import dev.sluice.batch.bronze.BronzeRow;
import dev.sluice.batch.bronze.BronzeSink;
import dev.sluice.batch.bronze.JdbcBatchBronzeSink;
import dev.sluice.batch.bronze.LandedFileRepository;
import dev.sluice.batch.bronze.PostgresCopyBronzeSink;
import dev.sluice.batch.refine.LayerTransform;
import dev.sluice.batch.refine.TransformResult;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.SourceSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.Layer;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.builder.JobBuilder;
import org.springframework.batch.core.job.builder.SimpleJobBuilder;
import org.springframework.batch.core.step.Step;
import org.springframework.batch.core.step.builder.StepBuilder;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.repeat.RepeatStatus;

/**
 * Builds the medallion job of one pipeline partition: one step per layer table, in spec order
 * (Bronze chunk steps, then Silver and Gold tasklet steps), each table with quality checks followed
 * by its gate step {@code gate.<table>}. Step names are the tables' qualified
 * names. Bronze appends through the database's bulk path (PostgreSQL COPY, else JDBC batches);
 * each Silver/Gold step is one transaction of set-based SQL. A failed job restarts from its
 * failed step. Thread-safe.
 */
public final class MedallionJobFactory {

    private final Warehouse warehouse;
    private final BatchInfrastructure batch;
    private final Path home;
    private final dev.sluice.batch.contract.ContractGuard guard;

    /**
     * @param home the Sluice home; {@code _source} names files relative to it
     */
    public MedallionJobFactory(Warehouse warehouse, BatchInfrastructure batch, Path home) {
        this.warehouse = warehouse;
        this.batch = batch;
        this.home = home;
        this.guard = new dev.sluice.batch.contract.ContractGuard(warehouse.dsl(), home);
    }

    /** The job of {@code partition} of {@code spec}, run as {@code run}, without lineage. */
    public Job job(PipelineSpec spec, Partition partition, RunId run) {
        return job(spec, partition, run, dev.sluice.lineage.LineageEmitter.NOOP, false, null, dev.sluice.batch.gate.GateEvaluations.ALONE, null);
    }

    /**
     * The job of {@code partition} of {@code spec}, run as {@code run}, its lineage sent to
     * {@code lineage}; {@code restart} when it resumes a failed attempt (a new OpenLineage run).
     *
     * @param parent the run that started this one (a backfill), its parent in lineage; or null
     * @param gates how its gate steps are evaluated (a rollup's gate is always evaluated alone: the
     *     partitions of a wave share its partition)
     * @param only the tables to run (step names), or null for every table
     */
    public Job job(PipelineSpec spec, Partition partition, RunId run, dev.sluice.lineage.LineageEmitter lineage, boolean restart,
            @org.jspecify.annotations.Nullable ParentRun parent, dev.sluice.batch.gate.GateEvaluations gates,
            java.util.@org.jspecify.annotations.Nullable Collection<String> only) {
        LineageListener events = new LineageListener(lineage, spec, partition, run, home, warehouse, restart, parent);
        List<Step> steps = new java.util.ArrayList<>();
        for (TableSpec t : spec.tables()) {
            if (only != null && !only.contains(t.stepName())) {
                continue;
            }
            Step step = t.layer() == Layer.BRONZE ? bronzeStep(spec, t, partition, run, events.step(t, false))
                    : transformStep(spec, t, partition, run, events.step(t, false));
            steps.add(step);
            if (t.hasGate()) {
                steps.add(gateStep(spec, t, partition, run, events.step(t, true),
                        t.isRollup() ? dev.sluice.batch.gate.GateEvaluations.ALONE : gates));
            }
        }
        if (steps.isEmpty()) {
            throw new dev.sluice.core.SluiceException("no table of pipeline " + spec.name() + " is among " + only);
        }
        dev.sluice.config.ReconcileSpec reconcile = spec.hotPath() == null ? null : spec.hotPath().reconcile();
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

    private Step bronzeStep(PipelineSpec spec, TableSpec table, Partition partition, RunId run,
            org.springframework.batch.core.listener.StepExecutionListener lineage) {
        SourceSpec source = spec.source(table.source()).orElseThrow();
        Partition p = source.partitioned() ? partition : Partition.NONE;
        LandedFileRepository landed = new LandedFileRepository(warehouse.dsl());
        String name = table.table().qualifiedName();
        List<dev.sluice.config.ColumnSpec> columnsRead = guard.bronzeColumns(spec, source);
        BronzeColumns columns = BronzeColumns.of(table.table(), columnsRead, p, run,
                OffsetDateTime.now(ZoneOffset.UTC));
        BronzeSink sink = warehouse.isPostgres()
                ? new PostgresCopyBronzeSink(warehouse.dataSource(), columns)
                : new JdbcBatchBronzeSink(warehouse.dataSource(), columns);
        BronzeItemWriter writer = new BronzeItemWriter(sink, landed, name, p);
        return new StepBuilder(name, batch.repository())
                .<BronzeRow, BronzeRow>chunk(spec.batchRows())
                .transactionManager(warehouse.transactionManager())
                .reader(new BronzeItemReader(spec.name(), name, source, columnsRead, p, run, home, landed, spec.maxLineBytes()))
                .writer(chunk -> {
                    RunControl.get().throwIfStopped(run);
                    writer.write(chunk);
                    FaultPoints.reach("bronze-chunk:" + name);
                })
                .listener(boundary(spec, run, name))
                .listener(snapshotLock(!source.partitioned(), name))
                .listener(lineage)
                .build();
    }

    /** Holds the table's snapshot lock during the step when {@code snapshot}, else does nothing. */
    private org.springframework.batch.core.listener.StepExecutionListener snapshotLock(boolean snapshot, String table) {
        return snapshot ? SnapshotLocks.holding(warehouse.spec().url(), table)
                : new org.springframework.batch.core.listener.StepExecutionListener() { };
    }

    /** Registers the job with {@link RunControl} (timeouts, cancel requests, shutdown) while it runs. */
    private org.springframework.batch.core.listener.JobExecutionListener control(PipelineSpec spec, RunId run) {
        return new org.springframework.batch.core.listener.JobExecutionListener() {
            @Override
            public void beforeJob(org.springframework.batch.core.job.JobExecution jobExecution) {
                RunControl.get().started(run, spec, warehouse.dsl(), batch.operator(), jobExecution);
            }

            @Override
            public void afterJob(org.springframework.batch.core.job.JobExecution jobExecution) {
                RunControl.get().ended(run);
            }
        };
    }

    /**
     * A listener that reaches the fault point {@code before:<step>} as the step starts, and tells
     * {@link RunControl} the step's timeout while it runs.
     */
    private static org.springframework.batch.core.listener.StepExecutionListener boundary(PipelineSpec spec, RunId run, String step) {
        return new org.springframework.batch.core.listener.StepExecutionListener() {
            @Override
            public void beforeStep(org.springframework.batch.core.step.StepExecution stepExecution) {
                RunControl.get().stepStarted(run, step, spec.execution().timeout(step));
                FaultPoints.reach("before:" + step);
            }

            @Override
            public org.springframework.batch.core.ExitStatus afterStep(org.springframework.batch.core.step.StepExecution stepExecution) {
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
    private Step gateStep(PipelineSpec spec, TableSpec table, Partition partition, RunId run,
            org.springframework.batch.core.listener.StepExecutionListener lineage, dev.sluice.batch.gate.GateEvaluations gates) {
        String name = dev.sluice.batch.gate.GateStep.stepName(table);
        dev.sluice.batch.gate.GateStep gate = new dev.sluice.batch.gate.GateStep(warehouse, spec, table,
                dev.sluice.quality.QualityGate.deequ(spec.sparkMaster()));
        java.util.concurrent.atomic.AtomicReference<dev.sluice.batch.gate.GateStep.Request> request = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.atomic.AtomicReference<dev.sluice.quality.GateResult> evaluated = new java.util.concurrent.atomic.AtomicReference<>();
        org.springframework.batch.core.listener.StepExecutionListener evaluation = new org.springframework.batch.core.listener.StepExecutionListener() {
            @Override
            public void beforeStep(org.springframework.batch.core.step.StepExecution stepExecution) {
                dev.sluice.batch.gate.GateStep.Request r = gate.prepare(partition, run);
                request.set(r);
                evaluated.set(gates.evaluate(gate, name, r));
            }

            @Override
            public org.springframework.batch.core.ExitStatus afterStep(org.springframework.batch.core.step.StepExecution stepExecution) {
                // the publication's transaction has committed; the step is not yet recorded COMPLETED
                if (stepExecution.getStatus() == org.springframework.batch.core.BatchStatus.COMPLETED && request.get() != null
                        && request.get().version() != null) {
                    FaultPoints.reach("published:" + table.stepName());
                }
                return null;
            }
        };
        return new StepBuilder(name, batch.repository())
                .tasklet((contribution, context) -> {
                    dev.sluice.quality.GateResult r = gate.finish(request.get(), evaluated.get());
                    ExecutionContext ctx = contribution.getStepExecution().getExecutionContext();
                    ctx.putString(StepMetrics.GATE_WARNINGS, String.join("\n", dev.sluice.batch.gate.GateStep.warnings(r)));
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
     * {@code reconcile.<live table>}, last: the hot path's live windows of the partition against the
     * batch mart just published, recorded as a quality result; fails the run only for
     * {@code severity: error}.
     */
    private Step reconcileStep(PipelineSpec spec, Partition partition, RunId run) {
        dev.sluice.config.ReconcileSpec r = spec.hotPath().reconcile();
        String name = "reconcile." + r.window().qualifiedName();
        java.util.concurrent.atomic.AtomicReference<dev.sluice.quality.GateResult> result = new java.util.concurrent.atomic.AtomicReference<>();
        org.springframework.batch.core.listener.StepExecutionListener compare = new org.springframework.batch.core.listener.StepExecutionListener() {
            @Override
            public void beforeStep(org.springframework.batch.core.step.StepExecution stepExecution) {
                // outside the step's transaction: the result is recorded even when it fails the step
                dev.sluice.quality.GateResult g = dev.sluice.batch.reconcile.Reconciliation.run(warehouse.dsl(), spec, partition);
                new dev.sluice.batch.gate.QualityResultRepository(warehouse.dsl()).save(spec.name(), run, g);
                result.set(g);
            }
        };
        return new StepBuilder(name, batch.repository())
                .tasklet((contribution, context) -> {
                    RunControl.get().throwIfStopped(run);
                    dev.sluice.quality.GateResult g = result.get();
                    ExecutionContext ctx = contribution.getStepExecution().getExecutionContext();
                    ctx.putString(StepMetrics.GATE_WARNINGS, String.join("\n", dev.sluice.batch.gate.GateStep.warnings(g)));
                    ctx.putLong(StepMetrics.GATE_CHECKS, g.checks().size());
                    ctx.putLong(StepMetrics.GATE_ELAPSED_MS, g.elapsedMs());
                    if (!g.passed()) {
                        throw new dev.sluice.batch.gate.GateFailedException(g.checks().get(0).message());
                    }
                    return RepeatStatus.FINISHED;
                }, warehouse.transactionManager())
                .listener(boundary(spec, run, name))
                .listener(compare)
                .build();
    }

    private Step transformStep(PipelineSpec spec, TableSpec table, Partition partition, RunId run,
            org.springframework.batch.core.listener.StepExecutionListener lineage) {
        // the step's statements can be cancelled by a stop (timeout, sluice cancel, shutdown)
        org.jooq.DSLContext dsl = warehouse.dsl().configuration()
                .deriveAppending(new org.jooq.impl.DefaultExecuteListenerProvider(RunControl.get().statements(run))).dsl();
        LayerTransform transform = new LayerTransform(dsl, spec, table);
        return new StepBuilder(table.table().qualifiedName(), batch.repository())
                .tasklet((contribution, context) -> {
                    RunControl.get().throwIfStopped(run);
                    TransformResult r = transform.apply(partition, run);
                    ExecutionContext ctx = contribution.getStepExecution().getExecutionContext();
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
                .listener(snapshotLock(!table.partitioned() || table.isRollup(),
                        table.isRollup() ? table.stepName() + "@" + table.outputPartition(partition) : table.stepName()))
                .listener(lineage)
                .build();
    }
}
