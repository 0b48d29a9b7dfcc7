package dev.sluice.batch.backfill;

import dev.sluice.control.backfill.Action;
import dev.sluice.control.backfill.PartitionStatus;

import dev.sluice.control.backfill.BackfillRepository;

import dev.sluice.engine.LayerEngine;
import dev.sluice.batch.gate.GateStep;
import dev.sluice.batch.job.ParentRun;
import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunControl;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.control.run.RunRecord;
import dev.sluice.batch.job.RunRefusedException;
import dev.sluice.control.run.RunRepository;
import dev.sluice.control.run.RunStatus;
import dev.sluice.batch.wave.WaveBarrier;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.BadInputException;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Layer;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import dev.sluice.core.SluiceException;
import dev.sluice.lineage.LineageEmitter;
import dev.sluice.lineage.RunEventType;
import dev.sluice.lineage.store.LineageRepository;
import dev.sluice.quality.QualityGate;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Plans and runs a backfill: the daily partitions of an inclusive range, each as its own job
 * instance (so a backfill and a plain {@code run} share attempts, restarts and refusals), started
 * by the backfill as their parent run.
 *
 * <p>Execution goes in waves of {@link Options#gateBatch()} partitions in partition order. Within
 * a wave, {@link Options#parallelism()} partitions work at once, and every gate step waits for
 * the wave's other partitions to reach it, so that each gate judges the whole wave in one pass
 * ({@link WaveBarrier}); anomaly checks see the earlier partitions of the wave as history, so the
 * results equal those of a one-by-one run in partition order. On an engine that writes waves (the
 * lakehouse) a Silver/Gold step waits the same way and one Spark job writes the table for the whole
 * wave ({@link dev.sluice.engine.LayerEngine#stageWave}); each partition then records,
 * gates and publishes its own version. The next wave starts when the previous one has ended.
 * A pipeline with a snapshot built from a partitioned input (or from a snapshot of one) runs its
 * partitions one at a time, in order, whatever the options ({@link #snapshotOfPartitions}), and
 * starts none after one that did not complete: invoking the backfill again continues in order.
 *
 * <p>Resumable: a backfill that did not complete is continued by the same command (same pipeline
 * and range): its id is kept, the partitions it completed are skipped, the ones it began are
 * resumed (restarted from their failed step), and it keeps its own {@code --rerun} setting.
 * Each invocation is its own OpenLineage run of job {@code <pipeline>.backfill}.
 *
 * <p>Not for concurrent use on one range; a partition run elsewhere at the same time is refused
 * by its job instance ({@link RunRefusedException}) and reported, never run twice.
 */
public final class Backfill {

    private static final Logger LOG = LoggerFactory.getLogger(Backfill.class);

    private final PipelineRunner runner;
    private final Clock clock;
    private final BackfillRepository backfills;
    private final RunRepository runs;

    /**
     * @param clock today's date for the backfill window (UTC)
     */
    public Backfill(PipelineRunner runner, Clock clock) {
        this.runner = runner;
        this.clock = clock;
        this.backfills = new BackfillRepository(runner.warehouse().dsl());
        this.runs = new RunRepository(runner.warehouse().dsl());
    }

    /**
     * How to run a backfill.
     *
     * @param parallelism partitions working at once (≥ 1)
     * @param gateBatch partitions per wave, whose gates are judged in one pass (≥ 1; 1 judges each alone)
     * @param requester who asked, or null
     */
    public record Options(int parallelism, int gateBatch, @Nullable String requester) {
        public Options {
            if (parallelism < 1 || gateBatch < 1) {
                throw new IllegalArgumentException("parallelism and gate batch must be at least 1");
            }
        }
    }

    /** Told as each partition ends (or is skipped); called from worker threads, so implementations must be thread-safe. */
    public interface Progress {
        /** Tells nothing. */
        Progress NONE = outcome -> { };

        /** {@code outcome}'s partition has ended (or was skipped). */
        void finished(PartitionOutcome outcome);
    }

    /**
     * The plan of a backfill of {@code spec} from {@code from} to {@code to}.
     *
     * @param rerun re-run COMPLETED partitions (ignored when continuing an unfinished backfill,
     *     which keeps its own setting)
     * @throws BadInputException when {@code to} is before {@code from}
     * @throws BackfillRefusedException when {@code from} is older than the spec's {@code backfill_window} allows
     */
    public BackfillPlan plan(PipelineSpec spec, LocalDate from, LocalDate to, boolean rerun) {
        return plan(spec, from, to, rerun, false);
    }

    /**
     * The plan of a backfill, {@code stale} re-running only the partitions whose latest COMPLETED
     * attempt ran with another spec hash than {@code spec}'s (spec, contracts and SQL changed since);
     * the others are skipped, FAILED ones restart.
     *
     * @throws BadInputException when {@code to} is before {@code from}
     * @throws BackfillRefusedException when {@code from} is older than the backfill window allows
     */
    public BackfillPlan plan(PipelineSpec spec, LocalDate from, LocalDate to, boolean rerun, boolean stale) {
        checkRange(spec, from, to);
        Optional<BackfillRepository.Unfinished> unfinished = backfills.unfinished(spec.name(), from, to, null);
        RunId id = unfinished.map(BackfillRepository.Unfinished::id).orElseGet(RunId::newId);
        boolean rr = unfinished.map(BackfillRepository.Unfinished::rerun).orElse(rerun);
        Map<String, PartitionStatus> begun = unfinished.map(u -> backfills.partitionStates(u.id())).orElse(Map.of());
        List<PlannedPartition> planned = new ArrayList<>();
        for (LocalDate d = from; !d.isAfter(to); d = d.plusDays(1)) {
            planned.add(plan(spec, Partition.daily(d), id, rr, stale, begun.get(d.toString())));
        }
        return new BackfillPlan(spec.name(), from, to, id, unfinished.isPresent(), rr, planned, steps(spec));
    }

    private void checkRange(PipelineSpec spec, LocalDate from, LocalDate to) {
        if (to.isBefore(from)) {
            throw new BadInputException("--to", -1, null, to + " is before --from " + from);
        }
        if (spec.backfillWindow() != null) {
            LocalDate earliest = LocalDate.now(clock.withZone(ZoneOffset.UTC)).minus(spec.backfillWindow());
            if (from.isBefore(earliest)) {
                throw new BackfillRefusedException("partition " + from + " is older than the backfill window " + spec.backfillWindow()
                        + " of pipeline " + spec.name() + " allows: the earliest partition a backfill may reach today is " + earliest
                        + " (backfill_window in " + spec.file().getFileName() + "; Bronze retention and purge keep that window)");
            }
        }
    }

    /**
     * The plan of a backfill planned from a change: {@code changed}'s partitions {@code from} …
     * {@code to} changed (a correction, a rollback, a re-load), so every downstream partition built
     * from them is re-run, and nothing else, in dependency order: first each stale partition of the
     * pipeline with only the stale tables ({@link ChangeImpact}), then each stale rollup partition
     * (the months holding the stale days) with only the rollup tables. The changed dataset itself is
     * not re-run. A partition never built is skipped: nothing downstream of it exists.
     *
     * @throws BadInputException when {@code to} is before {@code from} or {@code changed} is not a
     *     table of {@code spec}
     * @throws BackfillRefusedException when {@code from} is older than the backfill window allows
     */
    public BackfillPlan planChanged(PipelineSpec spec, DatasetRef changed, LocalDate from, LocalDate to) {
        checkRange(spec, from, to);
        ChangeImpact.Result impact = ChangeImpact.of(spec, changed, from, to, new LineageRepository(runner.warehouse().dsl()));
        Optional<BackfillRepository.Unfinished> unfinished = backfills.unfinished(spec.name(), from, to, changed);
        RunId id = unfinished.map(BackfillRepository.Unfinished::id).orElseGet(RunId::newId);
        Map<String, PartitionStatus> begun = unfinished.map(u -> backfills.partitionStates(u.id())).orElse(Map.of());
        List<PlannedPartition> planned = new ArrayList<>();
        Set<Partition> built = new HashSet<>();
        for (Partition p : impact.partitions()) {
            PlannedPartition pp = planStale(spec, p, id, begun.get(p.key()), impact.aligned(), changed);
            planned.add(pp);
            if (pp.action() != Action.SKIP || !pp.reason().startsWith("never built")) {
                built.add(p);
            }
        }
        impact.rollups().forEach((month, tables) -> {
            boolean fed = impact.aligned().isEmpty() || impact.partitions().stream().anyMatch(p -> built.contains(p)
                    && spec.table(DatasetRef.parse(tables.get(0))).orElseThrow().outputPartition(p).equals(month));
            planned.add(fed ? planStale(spec, month, id, begun.get(month.key()), tables, changed)
                    : new PlannedPartition(month, Action.SKIP, "none of its partitions is built", tables));
        });
        List<String> steps = new ArrayList<>();
        for (TableSpec t : spec.tables()) {
            if (impact.aligned().contains(t.stepName()) || impact.rollups().values().stream().anyMatch(v -> v.contains(t.stepName()))) {
                steps.add(t.stepName());
                if (t.hasGate()) {
                    steps.add(GateStep.stepName(t));
                }
            }
        }
        return new BackfillPlan(spec.name(), from, to, id, unfinished.isPresent(), true, planned, steps, changed, impact.outside());
    }

    /** One stale partition of a changed backfill: re-run {@code tables} (the next attempt), unless this backfill did already. */
    private PlannedPartition planStale(PipelineSpec spec, Partition p, RunId backfill, @Nullable PartitionStatus begun, List<String> tables,
            DatasetRef changed) {
        if (begun != null && begun.done()) { // completed, or found already COMPLETED, in an invocation of this backfill
            return new PlannedPartition(p, Action.SKIP, "completed by this backfill", tables);
        }
        Optional<RunRecord> latest = runs.latest(spec.name(), p);
        if (begun != null && latest.isPresent() && backfill.toString().equals(latest.get().traceId())) {
            return new PlannedPartition(p, Action.RESUME, "attempt " + latest.get().attempt() + " begun by this backfill, "
                    + latest.get().status(), tables);
        }
        if (begun != null && latest.isPresent() && latest.get().status() == RunStatus.COMPLETED
                && backfill.toString().equals(latest.get().traceId())) {
            return new PlannedPartition(p, Action.SKIP, "completed by this backfill", tables);
        }
        boolean rollup = p.kind().filter(k -> k != spec.partitionKind()).isPresent();
        if (!rollup && (latest.isEmpty() || latest.get().status() != RunStatus.COMPLETED)) {
            return new PlannedPartition(p, Action.SKIP, latest.isEmpty() ? "never built: nothing downstream of " + changed + " exists here"
                    : "not built: attempt " + latest.get().attempt() + " is " + latest.get().status()
                            + "; a plain run completes it, which builds everything downstream", tables);
        }
        String what = rollup ? "holds partitions built from changed " + changed : "built from changed " + changed;
        return latest.isEmpty() ? new PlannedPartition(p, Action.RUN, what + "; rebuilds " + String.join(", ", tables)
                + " (its first run as a partition of its own: the daily runs rebuilt it so far)", tables)
                : new PlannedPartition(p, Action.RERUN, what + "; attempt " + (latest.get().attempt() + 1) + " re-runs "
                        + String.join(", ", tables), tables);
    }

    private PlannedPartition plan(PipelineSpec spec, Partition p, RunId backfill, boolean rerun, boolean stale, @Nullable PartitionStatus begun) {
        Optional<String> missing = runner.landingProblem(spec, p);
        if (missing.isPresent()) {
            return new PlannedPartition(p, Action.MISSING, missing.get());
        }
        if (begun != null && begun.done()) { // completed, or found already COMPLETED, in an invocation of this backfill
            return new PlannedPartition(p, Action.SKIP, "completed by this backfill");
        }
        Optional<RunRecord> latest = runs.latest(spec.name(), p);
        if (begun != null && latest.isPresent() && backfill.toString().equals(latest.get().traceId())) {
            return latest.get().status() == RunStatus.COMPLETED ? new PlannedPartition(p, Action.SKIP, "completed by this backfill")
                    : new PlannedPartition(p, Action.RESUME, "attempt " + latest.get().attempt() + " begun by this backfill, "
                            + latest.get().status());
        }
        if (latest.isEmpty()) {
            return stale ? new PlannedPartition(p, Action.SKIP, "never built (--stale re-runs built partitions only)")
                    : new PlannedPartition(p, Action.RUN, "never run");
        }
        RunRecord last = latest.get();
        if (stale && last.status() == RunStatus.COMPLETED) {
            return last.specHash().equals(spec.hash())
                    ? new PlannedPartition(p, Action.SKIP, "built with the current spec (sha256 " + PipelineRunner.abbreviate(spec.hash()) + ")")
                    : new PlannedPartition(p, Action.RERUN, "built with spec sha256 " + PipelineRunner.abbreviate(last.specHash()) + ", now "
                            + PipelineRunner.abbreviate(spec.hash()) + ": opens attempt " + (last.attempt() + 1));
        }
        return switch (last.status()) {
            case COMPLETED -> rerun
                    ? new PlannedPartition(p, Action.RERUN, "attempt " + last.attempt() + " COMPLETED; --rerun opens attempt " + (last.attempt() + 1))
                    : new PlannedPartition(p, Action.SKIP, "attempt " + last.attempt() + " COMPLETED (--rerun runs it again)");
            case FAILED, STOPPED -> rerun
                    ? new PlannedPartition(p, Action.RERUN, "attempt " + last.attempt() + " " + last.status() + "; --rerun opens attempt "
                            + (last.attempt() + 1))
                    : new PlannedPartition(p, Action.RESTART, "attempt " + last.attempt() + " " + last.status()
                            + ": restarts from its " + last.status().name().toLowerCase(Locale.ROOT) + " step");
            default -> new PlannedPartition(p, Action.RESUME, "attempt " + last.attempt() + " " + last.status()
                    + " (a killed run is restarted; one still running is refused)");
        };
    }

    /** The first and last daily partition {@code spec}'s pipeline has runs of, if any: the range of {@code --stale}. */
    public Optional<LocalDate[]> builtRange(PipelineSpec spec) {
        return runs.completedDailyRange(spec.name()).map(r -> new LocalDate[] {LocalDate.parse(r[0]), LocalDate.parse(r[1])});
    }

    /** The step names of one partition's job, in order. */
    static List<String> steps(PipelineSpec spec) {
        List<String> out = new ArrayList<>();
        for (TableSpec t : spec.tables()) {
            out.add(t.stepName());
            if (t.hasGate()) {
                out.add(GateStep.stepName(t));
            }
        }
        return out;
    }

    /**
     * Runs {@code plan}.
     *
     * @return every partition's outcome, in order; FAILED when a partition failed, was missing or refused
     */
    public BackfillReport run(PipelineSpec spec, BackfillPlan plan, Options requested, Progress progress) {
        long started = System.nanoTime();
        Options options = effective(spec, requested);
        Optional<TableSpec> snapshot = snapshotOfPartitions(spec);
        RunId id = plan.backfillId();
        int invocation;
        if (plan.resumed()) {
            backfills.resume(id, spec.hash());
            invocation = backfills.invocations(id);
        } else {
            backfills.start(id, spec.name(), plan.from(), plan.to(), plan.rerun(), spec.hash(), options.requester(), plan.changed());
            invocation = 1;
        }
        RunId lineageRun = invocation == 1 ? id
                : new RunId(UUID.nameUUIDFromBytes((id + "/invocation/" + invocation).getBytes(StandardCharsets.UTF_8)));
        String job = spec.name() + ".backfill";
        MDC.put("run_id", id.toString());
        MDC.put("pipeline", spec.name());
        MDC.put("partition", plan.range().key());
        List<PartitionOutcome> outcomes = new ArrayList<>();
        long[] batches = new long[1];
        Map<String, Long> byGate = new LinkedHashMap<>();
        plan.steps().stream().filter(st -> st.startsWith("gate.")).forEach(g -> byGate.put(g, 0L));
        RunStatus status;
        try (LineageEmitter lineage = runner.lineage().track(LineageEmitter.of(spec.lineage(), PipelineRunner.version(),
                new LineageRepository(runner.warehouse().dsl())))) {
            lineage.emit(event(RunEventType.START, lineageRun, job, spec, plan, id, null));
            LOG.info("backfill {} of {} {}: {} partition(s) to run, parallelism {}, gates in waves of {}", plan.resumed() ? "continues" : "starts",
                    spec.name(), plan.range(), plan.toRun().size(), options.parallelism(), options.gateBatch());
            if (!options.equals(requested)) {
                LOG.warn("backfill of {}: partitions run one at a time, in order (asked: parallelism {}, waves of {}): {}", spec.name(),
                        requested.parallelism(), requested.gateBatch(), oneAtATime(spec).orElseThrow());
            }
            if (plan.partitions().stream().filter(p -> p.action().runs()).anyMatch(p -> spec.tables().stream().anyMatch(t -> !t.checks().isEmpty()
                    && (p.tables() == null || p.tables().contains(t.stepName()))))) {
                // the first wave's gates would otherwise wait for Spark's start after its Bronze loads
                // not awaited: a start that fails is logged by the gate and the first gate starts Spark itself
                var unused = QualityGate.deequ(spec.sparkMaster()).startInBackground();
            }
            for (PlannedPartition p : plan.partitions()) {
                if (!p.action().runs()) {
                    PartitionOutcome o = new PartitionOutcome(p.partition(), p.action() == Action.MISSING ? PartitionStatus.MISSING
                            : PartitionStatus.SKIPPED, null, p.reason());
                    outcomes.add(o);
                    if (p.action() == Action.MISSING) {
                        backfills.partition(id, p.partition(), p.tables(), p.action(), PartitionStatus.MISSING, null, p.reason());
                    }
                    progress.finished(o);
                }
            }
            List<PlannedPartition> toRun = plan.partitions().stream().filter(p -> p.action().runs()).toList();
            RunOptions base = new RunOptions(false, options.requester(), id.toString(), false);
            // waves of at most gateBatch partitions that run the same tables; a wave starts when the one before has ended
            List<PlannedPartition> wave = new ArrayList<>();
            PartitionOutcome blocking = null;
            for (PlannedPartition p : toRun) {
                if (!wave.isEmpty() && (wave.size() == options.gateBatch() || !Objects.equals(wave.get(0).tables(), p.tables()))) {
                    wave(spec, wave, base, new ParentRun(lineageRun, job), id, options, progress, outcomes, batches, byGate);
                    wave = new ArrayList<>();
                    blocking = snapshot.isPresent() ? unfinished(outcomes) : null;
                }
                if (blocking != null) {
                    // the snapshot is built in partition order: a later partition's version would be built (merge-on-key: without this
                    // one's rows) and published before this one's, which a resume would then bring back out of order
                    PartitionOutcome o = PartitionOutcome.notStarted(p.partition(), blocking.partition() + " did not complete ("
                            + blocking.status() + "), and " + snapshot.get().table()
                            + " is built one partition after another (invoking the backfill again continues it)");
                    backfills.partition(id, p.partition(), p.tables(), p.action(), PartitionStatus.STOPPED, null, o.message());
                    outcomes.add(o);
                    progress.finished(o);
                    continue;
                }
                wave.add(p);
            }
            if (!wave.isEmpty()) {
                wave(spec, wave, base, new ParentRun(lineageRun, job), id, options, progress, outcomes, batches, byGate);
            }
            outcomes.sort((a, b) -> a.partition().compareTo(b.partition()));
            List<PartitionOutcome> notDone = outcomes.stream()
                    .filter(o -> !o.status().done()).toList();
            boolean ok = notDone.isEmpty();
            boolean stopped = !ok && notDone.stream().allMatch(o -> o.status() == PartitionStatus.STOPPED);
            status = ok ? RunStatus.COMPLETED : stopped ? RunStatus.STOPPED : RunStatus.FAILED;
            String error = ok ? null : notDone.size() + " partition(s) did not complete, the first " + notDone.get(0).partition()
                    + " " + notDone.get(0).status() + ": " + notDone.get(0).message();
            lineage.emit(event(ok ? RunEventType.COMPLETE : RunEventType.FAIL, lineageRun, job, spec, plan, id, error));
        } finally {
            MDC.remove("run_id");
            MDC.remove("pipeline");
            MDC.remove("partition");
        }
        backfills.finish(id, status);
        return new BackfillReport(id, lineageRun, status, outcomes, (System.nanoTime() - started) / 1_000_000, batches[0], byGate);
    }

    /**
     * The options a backfill of {@code spec} runs with: {@code requested}, or (the same instance
     * unless) one partition at a time, in waves of one, for a pipeline with a snapshot built from
     * partitions ({@link #oneAtATime}).
     */
    public static Options effective(PipelineSpec spec, Options requested) {
        return snapshotOfPartitions(spec).isPresent() && (requested.parallelism() > 1 || requested.gateBatch() > 1)
                ? new Options(1, 1, requested.requester()) : requested;
    }

    /**
     * Why a backfill of {@code spec} runs its partitions one at a time, in order, whatever the
     * options ask (its first snapshot built from partitions named), or empty when it does not.
     */
    public static Optional<String> oneAtATime(PipelineSpec spec) {
        return snapshotOfPartitions(spec).map(t -> t.table() + " is a snapshot written " + (t.mergeOnKey() ? "merge-on-key" : "overwrite-partition")
                + " from " + (spec.table(t.input()).orElseThrow().partitioned() ? "the partitioned " + t.input() : t.input() + ", a snapshot of partitioned data")
                + (t.mergeOnKey() ? ", and each partition's version is built on the one published before it"
                        : ", and each partition's version replaces it, so the last partition must be published last"));
    }

    /**
     * The first snapshot ({@code partition: none}, not a rollup) built from a partitioned input, or
     * from a snapshot of one ({@link PipelineSpec#builtFromPartitions}), if any. Written
     * {@code merge-on-key}, each partition run's new version is the published version upserted with
     * that partition's rows, so the runs publish one after another: run at once, all but the first
     * to publish would be refused (the compare-and-set of
     * {@link dev.sluice.control.version.PartitionVersions#publishOnBase}) and built again on
     * their retries, outside the wave (before that check, four days in one wave left one day's
     * keys: {@code MergeOnKeySnapshotIT}). Written {@code overwrite-partition}, each partition's
     * version replaces the snapshot, which holds the partition published last: run in order, that
     * is the last one the backfill runs ({@code SnapshotOfDailyInputIT}; a partition it skips as
     * COMPLETED is not run again).
     */
    static Optional<TableSpec> snapshotOfPartitions(PipelineSpec spec) {
        return spec.tables().stream().filter(t -> !t.partitioned() && !t.isRollup() && t.input() != null
                && spec.table(t.input()).map(spec::builtFromPartitions).orElse(false)).findFirst();
    }

    /** The first outcome of a partition that ran or tried to and did not complete (MISSING and SKIPPED are not), or null. */
    private static @Nullable PartitionOutcome unfinished(List<PartitionOutcome> outcomes) {
        return outcomes.stream().filter(o -> o.status() != PartitionStatus.MISSING && !o.status().done()).findFirst().orElse(null);
    }

    /** Runs one wave; adds its one-pass gate evaluations to {@code batches} and their milliseconds per gate to {@code byGate}. */
    private void wave(PipelineSpec spec, List<PlannedPartition> wave, RunOptions base, ParentRun parent, RunId backfill, Options options,
            Progress progress, List<PartitionOutcome> outcomes, long[] batches, Map<String, Long> byGate) {
        Semaphore permits = new Semaphore(options.parallelism(), true);
        Set<Partition> members = new HashSet<>();
        wave.forEach(p -> members.add(p.partition()));
        List<String> tables = wave.get(0).tables();
        LayerEngine engine = runner.engine(spec);
        List<String> shared = new ArrayList<>(); // in the order a job runs them
        for (TableSpec t : spec.tables()) {
            if (tables != null && !tables.contains(t.stepName())) {
                continue;
            }
            if (t.layer() != Layer.BRONZE && (engine.stagesWaves(t) || t.isRollup())) { // a rollup: rebuilt once per month of the wave
                shared.add(t.stepName());
            }
            if (t.hasGate() && !t.isRollup()) {
                shared.add(GateStep.stepName(t));
            }
        }
        WaveBarrier barrier = new WaveBarrier(shared, members, permits);
        ExecutorService pool = Executors.newFixedThreadPool(wave.size(), r -> {
            Thread t = new Thread(r, "backfill-" + spec.name());
            t.setDaemon(true);
            return t;
        });
        Map<String, String> context = MDC.getCopyOfContextMap();
        try {
            List<Future<PartitionOutcome>> futures = new ArrayList<>();
            for (PlannedPartition p : wave) {
                futures.add(pool.submit(() -> {
                    permits.acquireUninterruptibly();
                    try {
                        String cancelled = backfills.cancelRequest(backfill);
                        if (cancelled != null || RunControl.get().shuttingDown()) {
                            PartitionOutcome o = PartitionOutcome.notStarted(p.partition(),
                                    (cancelled != null ? "the backfill was cancelled by " + cancelled : "the process is shutting down")
                                    + " (invoking the backfill again continues it)");
                            progress.finished(o);
                            return o;
                        }
                        backfills.partition(backfill, p.partition(), p.tables(), p.action(), PartitionStatus.RUNNING, null, p.reason());
                        RunOptions o = base.withRerun(p.action() == Action.RERUN).withParent(parent, barrier).withTables(p.tables());
                        PartitionOutcome outcome = one(spec, p.partition(), o);
                        backfills.partition(backfill, p.partition(), p.tables(), p.action(), outcome.status(),
                                outcome.summary() == null ? null : outcome.summary().runId(), outcome.message());
                        progress.finished(outcome);
                        return outcome;
                    } finally {
                        barrier.ended(p.partition());
                        permits.release();
                    }
                }));
            }
            for (Future<PartitionOutcome> f : futures) {
                PartitionOutcome o = get(f);
                outcomes.add(o);
            }
            barrier.batchesByStep().forEach((step, n) -> batches[0] += step.startsWith("gate.") ? n : 0);
            barrier.msByStep().forEach((step, ms) -> {
                if (step.startsWith("gate.")) {
                    byGate.merge(step, ms, Long::sum);
                }
            });
        } finally {
            pool.shutdownNow();
            if (context != null) {
                MDC.setContextMap(context);
            }
        }
    }

    private PartitionOutcome one(PipelineSpec spec, Partition p, RunOptions options) {
        try {
            return PartitionOutcome.ran(runner.run(spec, p, options));
        } catch (SluiceException e) {
            return PartitionOutcome.threw(p, e, "already COMPLETED before this invocation");
        }
    }

    private static PartitionOutcome get(Future<PartitionOutcome> f) {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SluiceException("interrupted while waiting for a backfill partition", e);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException r) {
                throw r;
            }
            throw new SluiceException("a backfill partition failed: " + c, c);
        }
    }

    private LineageEmitter.RunEvent event(RunEventType type, RunId run, String job, PipelineSpec spec, BackfillPlan plan, RunId backfill,
            @Nullable String error) {
        Instant start = plan.from().atStartOfDay().toInstant(ZoneOffset.UTC);
        Instant end = plan.to().plusDays(1).atStartOfDay().toInstant(ZoneOffset.UTC);
        return new LineageEmitter.RunEvent(type, run, LineageEmitter.RunKind.BACKFILL, job, null, null, plan.range(), start, end,
                clock.instant(), List.of(), List.of(), null, spec.hash(), error, backfill);
    }
}
