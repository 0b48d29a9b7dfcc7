package dev.sluice.app.schedule;

import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.SluiceException;
import dev.sluice.lineage.LineageTally;
import dev.sluice.warehouse.Warehouse;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TimeZone;
import java.util.UUID;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.quartz.CronScheduleBuilder;
import org.quartz.CronTrigger;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.SimpleTrigger;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.TriggerKey;
import org.quartz.impl.StdSchedulerFactory;
import org.quartz.utils.DBConnectionManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The long-lived scheduler: Quartz with its JDBC job store in the warehouse ({@code sluice.QRTZ_*},
 * clustered, so several scheduler processes on one database share the work and each fire runs in
 * exactly one of them), one durable job and one cron trigger per scheduled pipeline (time zone
 * from the spec; missed fires are fired again, oldest first, and {@link ScheduledLoadJob} applies
 * the pipeline's tier). Registering a trigger that already exists with the same cron and zone
 * keeps it, so that the fires missed while every scheduler was down are not lost. Not
 * thread-safe; one per process.
 */
public final class PipelineScheduler implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PipelineScheduler.class);
    private static final String GROUP = "sluice";

    private final Scheduler scheduler;
    private final String dataSourceName;
    private final PipelineRunner runner;

    /**
     * Scheduler settings.
     *
     * @param threads Quartz worker threads (pipelines that may run at once; one pipeline never runs twice at once)
     * @param misfireThresholdMs how late a fire may be before it counts as missed, in milliseconds
     * @param checkinIntervalMs how often a node tells the cluster it is alive, in milliseconds (a
     *     node silent for longer is taken as dead and its fires are recovered)
     */
    public record Settings(int threads, long misfireThresholdMs, long checkinIntervalMs) {
        /** 4 threads, 60 s misfire threshold, 5 s check-in. */
        public static final Settings DEFAULT = new Settings(4, 60_000, 5_000);
    }

    /**
     * @param specs loads a pipeline's spec by name (each fire reads it again)
     */
    public PipelineScheduler(Warehouse warehouse, Path home, Function<String, PipelineSpec> specs, Settings settings) {
        this.dataSourceName = "sluice-warehouse-" + UUID.randomUUID();
        DBConnectionManager.getInstance().addConnectionProvider(dataSourceName, new WarehouseConnections(warehouse.dataSource()));
        Properties p = new Properties();
        p.setProperty("org.quartz.scheduler.instanceName", "sluice");
        p.setProperty("org.quartz.scheduler.instanceId", "AUTO");
        p.setProperty("org.quartz.scheduler.skipUpdateCheck", "true");
        p.setProperty("org.quartz.threadPool.class", "org.quartz.simpl.SimpleThreadPool");
        p.setProperty("org.quartz.threadPool.threadCount", Integer.toString(settings.threads()));
        p.setProperty("org.quartz.jobStore.class", "org.quartz.impl.jdbcjobstore.JobStoreTX");
        p.setProperty("org.quartz.jobStore.driverDelegateClass", warehouse.isPostgres()
                ? "org.quartz.impl.jdbcjobstore.PostgreSQLDelegate" : "org.quartz.impl.jdbcjobstore.StdJDBCDelegate");
        p.setProperty("org.quartz.jobStore.tablePrefix", Warehouse.METADATA_SCHEMA + ".QRTZ_");
        p.setProperty("org.quartz.jobStore.dataSource", dataSourceName);
        p.setProperty("org.quartz.jobStore.isClustered", "true");
        p.setProperty("org.quartz.jobStore.clusterCheckinInterval", Long.toString(settings.checkinIntervalMs()));
        p.setProperty("org.quartz.jobStore.misfireThreshold", Long.toString(settings.misfireThresholdMs()));
        p.setProperty("org.quartz.jobStore.acquireTriggersWithinLock", "true");
        this.runner = new PipelineRunner(warehouse, home);
        try {
            StdSchedulerFactory factory = new StdSchedulerFactory(p);
            this.scheduler = factory.getScheduler();
            scheduler.getContext().put(SchedulerRuntime.KEY, new SchedulerRuntime(runner, specs, new MissedPartitions(warehouse.dsl())));
        } catch (SchedulerException e) {
            throw new SluiceException("cannot set up the scheduler on " + warehouse.spec().url() + ": " + e.getMessage(), e);
        }
    }

    /**
     * What {@link #schedule} registered for a pipeline.
     *
     * @param cron the cron expression, or {@code -} when only data triggers start it
     * @param nextFire the cron trigger's next fire, or null without one
     * @param after the datasets whose publications start it (data triggers), or empty
     */
    public record Registered(String pipeline, String cron, String zone, int tier, @Nullable Instant nextFire,
            boolean kept, List<String> after) {
    }

    /**
     * Registers the trigger of {@code spec} (replacing one whose cron or zone changed).
     *
     * @throws dev.sluice.core.BadInputException when its schedule is missing or not valid
     */
    public Registered schedule(PipelineSpec spec) {
        JobKey jobKey = JobKey.jobKey(spec.name(), GROUP);
        TriggerKey triggerKey = TriggerKey.triggerKey(spec.name(), GROUP);
        if (spec.schedule() != null && !spec.schedule().hasCron()) {
            try {
                scheduler.deleteJob(jobKey); // the cron trigger it may have had
                scheduleFreshness(spec);
                scheduleResume(spec);
                scheduleDataTriggers(spec);
                return new Registered(spec.name(), "-", spec.schedule().zone().getId(), spec.tier(), null, false,
                        spec.schedule().after().stream().map(d -> d.qualifiedName()).toList());
            } catch (SchedulerException e) {
                throw new SluiceException("cannot register the data triggers of " + spec.name() + ": " + e.getMessage(), e);
            }
        }
        FireSchedule fires = new FireSchedule(spec);
        JobDetail job = JobBuilder.newJob(ScheduledLoadJob.class).withIdentity(jobKey).storeDurably().requestRecovery()
                .usingJobData(PipelineJob.PIPELINE, spec.name())
                .withDescription("scheduled loads of pipeline " + spec.name()).build();
        CronTrigger trigger = TriggerBuilder.newTrigger().withIdentity(triggerKey).forJob(jobKey)
                .withSchedule(CronScheduleBuilder.cronSchedule(fires.cron()).inTimeZone(TimeZone.getTimeZone(fires.zone()))
                        .withMisfireHandlingInstructionIgnoreMisfires())
                .build();
        try {
            Trigger existing = scheduler.getTrigger(triggerKey);
            boolean same = existing instanceof CronTrigger c && c.getCronExpression().equals(fires.cron())
                    && c.getTimeZone().getID().equals(TimeZone.getTimeZone(fires.zone()).getID());
            if (!same) {
                scheduler.scheduleJob(job, Set.of(trigger), true);
            }
            scheduleFreshness(spec);
            scheduleResume(spec);
            scheduleDataTriggers(spec);
            Trigger now = scheduler.getTrigger(triggerKey);
            Instant next = now == null || now.getNextFireTime() == null ? null : now.getNextFireTime().toInstant();
            return new Registered(spec.name(), fires.cron(), fires.zone().getId(), spec.tier(), next, same,
                    spec.schedule().after().stream().map(d -> d.qualifiedName()).toList());
        } catch (SchedulerException e) {
            throw new SluiceException("cannot register the schedule of " + spec.name() + ": " + e.getMessage(), e);
        }
    }

    /**
     * The freshness check of {@code spec}'s datasets, every half of the shortest update interval
     * it declares (at least twice per interval); none when it declares none.
     */
    private void scheduleFreshness(PipelineSpec spec) throws SchedulerException {
        JobKey key = JobKey.jobKey(spec.name() + ".freshness", GROUP);
        TriggerKey triggerKey = TriggerKey.triggerKey(spec.name() + ".freshness", GROUP);
        Duration shortest = spec.datasets().values().stream().map(d -> d.updateInterval())
                .min(Comparator.naturalOrder()).orElse(null);
        if (shortest == null) {
            scheduler.deleteJob(key);
            return;
        }
        long everyMs = Math.max(1_000, shortest.toMillis() / 2);
        Trigger existing = scheduler.getTrigger(triggerKey);
        if (existing instanceof SimpleTrigger st && st.getRepeatInterval() == everyMs) {
            return;
        }
        JobDetail job = JobBuilder.newJob(FreshnessCheckJob.class).withIdentity(key).storeDurably()
                .usingJobData(PipelineJob.PIPELINE, spec.name()).withDescription("freshness of " + spec.name()).build();
        Trigger trigger = TriggerBuilder.newTrigger().withIdentity(triggerKey).forJob(key).startNow()
                .withSchedule(SimpleScheduleBuilder.simpleSchedule().withIntervalInMilliseconds(everyMs).repeatForever()
                        .withMisfireHandlingInstructionNextWithRemainingCount())
                .build();
        scheduler.scheduleJob(job, Set.of(trigger), true);
    }

    /**
     * A one-shot fire, now, that resumes the partitions of {@code spec} a shutdown stopped
     * ({@link ResumeStoppedJob}); one node of the cluster runs it.
     */
    private void scheduleResume(PipelineSpec spec) throws SchedulerException {
        JobKey key = JobKey.jobKey(spec.name() + ".resume", GROUP);
        JobDetail job = JobBuilder.newJob(ResumeStoppedJob.class).withIdentity(key).storeDurably()
                .usingJobData(PipelineJob.PIPELINE, spec.name()).withDescription("resume stopped loads of " + spec.name()).build();
        Trigger trigger = TriggerBuilder.newTrigger().withIdentity(TriggerKey.triggerKey(spec.name() + ".resume", GROUP)).forJob(key)
                .startNow().build();
        scheduler.scheduleJob(job, Set.of(trigger), true);
    }

    /** The data triggers of {@code spec}: a look at what was published every {@code schedule.poll}; none without {@code after}. */
    private void scheduleDataTriggers(PipelineSpec spec) throws SchedulerException {
        JobKey key = JobKey.jobKey(spec.name() + ".after", GROUP);
        TriggerKey triggerKey = TriggerKey.triggerKey(spec.name() + ".after", GROUP);
        if (spec.schedule() == null || spec.schedule().after().isEmpty()) {
            scheduler.deleteJob(key);
            return;
        }
        long everyMs = Math.max(100, spec.schedule().poll().toMillis());
        Trigger existing = scheduler.getTrigger(triggerKey);
        if (existing instanceof SimpleTrigger st && st.getRepeatInterval() == everyMs
                && spec.schedule().after().toString().equals(scheduler.getJobDetail(key).getJobDataMap().getString("after"))) {
            return;
        }
        JobDetail job = JobBuilder.newJob(DataTriggerJob.class).withIdentity(key).storeDurably()
                .usingJobData(PipelineJob.PIPELINE, spec.name()).usingJobData("after", spec.schedule().after().toString())
                .withDescription("data triggers of " + spec.name()).build();
        Trigger trigger = TriggerBuilder.newTrigger().withIdentity(triggerKey).forJob(key).startNow()
                .withSchedule(SimpleScheduleBuilder.simpleSchedule().withIntervalInMilliseconds(everyMs).repeatForever()
                        .withMisfireHandlingInstructionNextWithRemainingCount())
                .build();
        scheduler.scheduleJob(job, Set.of(trigger), true);
    }

    /** Starts firing. */
    public void start() {
        try {
            scheduler.start();
            LOG.info("scheduler {} started", scheduler.getSchedulerInstanceId());
        } catch (SchedulerException e) {
            throw new SluiceException("cannot start the scheduler: " + e.getMessage(), e);
        }
    }

    /** The lineage statistics of the loads this process ran since it started (and is running now). */
    public LineageTally lineage() {
        return runner.lineage();
    }

    /** This node's id in the cluster. */
    public String instanceId() {
        try {
            return scheduler.getSchedulerInstanceId();
        } catch (SchedulerException e) {
            return "unknown";
        }
    }

    /** Stops firing and waits for running fires to end. */
    @Override
    public void close() {
        try {
            scheduler.shutdown(true);
        } catch (SchedulerException e) {
            LOG.warn("the scheduler did not shut down cleanly: {}", e.getMessage());
        } finally {
            try {
                DBConnectionManager.getInstance().shutdown(dataSourceName);
            } catch (SQLException e) {
                LOG.debug("connection provider {} shutdown: {}", dataSourceName, e.getMessage());
            }
        }
    }
}
