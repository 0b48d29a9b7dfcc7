package dev.sluice.app.schedule;

import dev.sluice.batch.job.LandingMissingException;
import dev.sluice.batch.job.PartitionCompletedException;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.batch.job.RunRefusedException;
import dev.sluice.batch.job.RunSummary;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.Partition;
import dev.sluice.core.SluiceException;
import java.time.Instant;
import java.util.List;
import org.quartz.DisallowConcurrentExecution;
import org.quartz.JobExecutionContext;
import org.quartz.SchedulerException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * One fire of a pipeline's trigger: loads the partitions the fire is responsible for
 * ({@link FireSchedule#partitionsFor}, from the fire's <em>scheduled</em> time), each as a plain
 * run of its job instance. Quartz runs at most one fire of a pipeline at a time across the cluster
 * ({@link DisallowConcurrentExecution}, per pipeline job); the job instance identity is the second
 * guard: a partition already COMPLETED is not loaded again, one running elsewhere is refused.
 *
 * <p>Missed fires (the scheduler was down) are fired again oldest first, one at a time. A pipeline of
 * tier 1 or 2 loads each; a tier-3 pipeline loads only the newest and records the partitions of
 * the older ones as MISSED ({@code sluice.missed_partition}), to be backfilled. A failure is
 * logged and never stops the scheduler.
 */
@DisallowConcurrentExecution
public final class ScheduledLoadJob extends PipelineJob {

    private static final Logger LOG = LoggerFactory.getLogger(ScheduledLoadJob.class);

    /** Job data key: the pipeline name. */

    @Override
    void fire(SchedulerRuntime runtime, String pipeline, JobExecutionContext context) throws SchedulerException {
        fire(runtime, pipeline, context.getScheduledFireTime().toInstant(), context.getFireTime().toInstant(),
                context.getScheduler().getSchedulerInstanceId());
    }

    static void fire(SchedulerRuntime runtime, String pipeline, Instant scheduled, Instant firedAt, String instance) {
        PipelineSpec spec;
        try {
            spec = runtime.spec(pipeline);
        } catch (SluiceException e) {
            LOG.error("fire of {} scheduled at {}: the spec cannot be loaded: {}", pipeline, scheduled, e.getMessage());
            return;
        }
        FireSchedule schedule = new FireSchedule(spec);
        List<Partition> partitions = schedule.partitionsFor(scheduled);
        Instant next = schedule.next(scheduled);
        if (spec.tier() == 3 && next != null && !next.isAfter(firedAt)) {
            for (Partition p : partitions) {
                runtime.missed().record(pipeline, p, scheduled, "tier 3: missed fire of " + scheduled
                        + " superseded by a newer due fire (" + next + "); only the newest missed fire runs");
                LOG.warn("fire of {} scheduled at {}: partition {} MISSED (tier 3 runs only the newest missed fire)", pipeline, scheduled, p);
            }
            return;
        }
        if (partitions.isEmpty()) {
            LOG.info("fire of {} scheduled at {}: its partition was loaded by the previous fire (clocks fell back)", pipeline, scheduled);
        }
        for (Partition p : partitions) {
            MDC.put("partition", p.key());
            try {
                RunSummary s = runtime.runner().run(spec, p, new RunOptions(false, "scheduler " + instance, "fire " + scheduled, false));
                LOG.info("fire of {} scheduled at {}: partition {} {}", pipeline, scheduled, p, s.status());
            } catch (PartitionCompletedException e) {
                LOG.info("fire of {} scheduled at {}: partition {} is already COMPLETED", pipeline, scheduled, p);
            } catch (RunRefusedException e) {
                LOG.warn("fire of {} scheduled at {}: partition {} refused: {}", pipeline, scheduled, p, e.getMessage());
            } catch (LandingMissingException e) {
                LOG.error("fire of {} scheduled at {}: partition {} has no landed data: {}", pipeline, scheduled, p, e.getMessage());
            } catch (SluiceException e) {
                LOG.error("fire of {} scheduled at {}: partition {} failed: {}", pipeline, scheduled, p, e.getMessage());
            } catch (RuntimeException e) {
                LOG.error("fire of {} scheduled at {}: partition {} failed unexpectedly", pipeline, scheduled, p, e);
            } finally {
                MDC.remove("partition");
                MDC.remove("run_id");
            }
        }
    }
}
