package dev.sluice.app.schedule;

import dev.sluice.batch.job.RunControl;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.control.run.RunRepository;
import dev.sluice.control.run.RunStatus;
import dev.sluice.batch.job.RunSummary;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Partition;
import dev.sluice.core.SluiceException;
import dev.sluice.warehouse.meta.PublishedPartitionTable;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.impl.DSL;
import org.quartz.DisallowConcurrentExecution;
import org.quartz.JobExecutionContext;
import org.quartz.SchedulerException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * The data triggers of one pipeline ({@code schedule.after}), fired every {@code schedule.poll}:
 * for each partition key that every listed dataset has published ({@code sluice.published_partition}),
 * runs that partition here when this pipeline never built it, or last built it (its latest
 * COMPLETED attempt started) before the newest of those publications (the next attempt, so that a
 * re-published upstream partition is propagated), or its latest attempt FAILED or was stopped by a
 * shutdown (a restart). Oldest partition first, one at a time; not concurrent with itself, and one
 * node of a cluster fires it. A partition key this pipeline's partitioning cannot read is skipped
 * with a warning.
 */
@DisallowConcurrentExecution
public final class DataTriggerJob extends PipelineJob {

    private static final Logger LOG = LoggerFactory.getLogger(DataTriggerJob.class);
    private static final Field<String> DATASET = DSL.field(DSL.name("dataset"), String.class);
    private static final Field<String> KEY = DSL.field(DSL.name("partition_key"), String.class);
    private static final Field<OffsetDateTime> AT = DSL.field(DSL.name("published_at"), OffsetDateTime.class);

    @Override
    void fire(SchedulerRuntime runtime, String pipeline, JobExecutionContext context) throws SchedulerException {
        check(runtime, pipeline, context.getScheduler().getSchedulerInstanceId());
    }

    static void check(SchedulerRuntime runtime, String pipeline, String instance) {
        PipelineSpec spec;
        try {
            spec = runtime.spec(pipeline);
        } catch (SluiceException e) {
            LOG.error("data triggers of {}: the spec cannot be loaded: {}", pipeline, e.getMessage());
            return;
        }
        if (spec.schedule() == null || spec.schedule().after().isEmpty()) {
            return;
        }
        DSLContext dsl = runtime.runner().warehouse().dsl();
        List<String> datasets = spec.schedule().after().stream().map(DatasetRef::qualifiedName).toList();
        // partition key → newest publication, for the keys every listed dataset has published
        Map<String, OffsetDateTime> ready = new TreeMap<>();
        dsl.select(KEY, DSL.max(AT)).from(PublishedPartitionTable.TABLE).where(DATASET.in(datasets))
                .groupBy(KEY).having(DSL.countDistinct(DATASET).eq(datasets.size()))
                .forEach(r -> ready.put(r.value1(), r.value2()));
        Map<String, RunRepository.Latest> latest = new RunRepository(dsl).latestByPartition(pipeline);
        for (Map.Entry<String, OffsetDateTime> e : ready.entrySet()) {
            if (RunControl.get().shuttingDown()) {
                return;
            }
            Partition p;
            try {
                p = spec.partitionKind().parse(e.getKey());
            } catch (SluiceException ex) {
                LOG.warn("data trigger of {}: {} published partition {}, which is not a {} partition of this pipeline; skipped",
                        pipeline, datasets, e.getKey(), spec.partitionKind().id());
                continue;
            }
            RunRepository.Latest last = latest.get(p.key());
            boolean rerun = false;
            if (last != null) {
                if (last.status() == RunStatus.COMPLETED) {
                    if (!last.startedAt().isBefore(e.getValue())) {
                        continue; // built after the newest publication
                    }
                    rerun = true;
                } else if (last.status() == RunStatus.STARTED || last.status() == RunStatus.STOPPED && !last.stoppedByShutdown()) {
                    continue; // running, or stopped on purpose (cancel, timeout)
                }
            }
            MDC.put("partition", p.key());
            try {
                RunSummary s = runtime.runner().run(spec, p, new RunOptions(rerun, "scheduler " + instance,
                        "data trigger: " + String.join(", ", datasets) + " published " + p.key() + " at " + e.getValue(), false));
                LOG.info("data trigger: {} published partition {} at {}: {} {}", datasets, p, e.getValue(), pipeline, s.status());
            } catch (SluiceException ex) {
                LOG.warn("data trigger: partition {} of {} cannot run now: {}", p, pipeline, ex.getMessage());
            } finally {
                MDC.remove("partition");
                MDC.remove("run_id");
            }
        }
    }
}
