package dev.sluice.batch.wave;

import dev.sluice.engine.LayerEngine;
import dev.sluice.engine.StagedWrite;
import dev.sluice.batch.gate.GateEvaluator;
import dev.sluice.batch.gate.GateStep;
import dev.sluice.config.TableSpec;
import dev.sluice.core.FaultPoints;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import dev.sluice.core.SluiceException;
import dev.sluice.quality.GateResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Gathers the shared steps of a set of partitions running at once (a backfill wave): each such
 * step, a table written by one job ({@link LayerEngine#stageWave}) or a gate judging in one pass
 * ({@link GateStep#evaluateAll}), runs once for all of them. A partition's step waits until every
 * member has reached that step, passed it (a restart that skips it) or ended; then one of the
 * waiting threads carries it out for all and hands each its own result. While it waits, a member
 * gives back its work permit so that the others can reach the step: members hold a permit of
 * {@code permits} whenever they work, never while they wait (no deadlock with fewer permits than
 * members). Steps are ordered as the job runs them. Thread-safe.
 */
public final class WaveBarrier implements WaveSteps {

    private static final int ENDED = Integer.MAX_VALUE;

    private final List<String> steps;
    private final Set<Partition> members;
    private final Semaphore permits;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Map<Partition, Integer> position = new HashMap<>();
    private final Map<Integer, Map<Partition, Waiting>> waiting = new HashMap<>();
    private final Map<String, Long> batchesByStep = new TreeMap<>();
    private final Map<String, Long> nanosByStep = new TreeMap<>();

    /**
     * @param steps the shared step names (tables' step names, gate step names) in the order a job runs them
     * @param members the partitions whose steps are gathered; each must call {@link #ended} when its job ends
     * @param permits the work permits the members hold while they work
     */
    public WaveBarrier(List<String> steps, Set<Partition> members, Semaphore permits) {
        this.steps = List.copyOf(steps);
        this.members = Set.copyOf(members);
        this.permits = permits;
    }

    /**
     * A member's request waiting at a step, the work that answers every request of the step at
     * once (keyed by member), and what the member gets back.
     */
    private static final class Waiting {
        final Partition member;
        final Object request;
        final Function<List<Waiting>, Map<Partition, ?>> work;
        final int step;
        @Nullable Object result;
        @Nullable RuntimeException error;
        boolean done;

        Waiting(Partition member, Object request, Function<List<Waiting>, Map<Partition, ?>> work, int step) {
            this.member = member;
            this.request = request;
            this.work = work;
            this.step = step;
        }
    }

    @Override
    public GateResult evaluate(GateEvaluator step, String gate, GateStep.Request request) {
        if (!steps.contains(gate) || !members.contains(request.partition())) {
            return step.evaluate(request);
        }
        return (GateResult) join(gate, request.partition(), request, batch -> {
            Map<Partition, GateResult> judged = step.evaluateAll(batch.stream().map(w -> (GateStep.Request) w.request).toList());
            Map<Partition, GateResult> out = new HashMap<>();
            for (Waiting w : batch) {
                out.put(w.member, judged.get(((GateStep.Request) w.request).judged()));
            }
            return out;
        });
    }

    @Override
    public @Nullable StagedWrite stage(LayerEngine engine, TableSpec table, Partition partition, RunId run) {
        if (!steps.contains(table.stepName()) || !members.contains(partition)) {
            return null;
        }
        if (table.isRollup()) {
            Object answer = join(table.stepName(), partition, run, batch -> rollupWriters(table, batch));
            return answer == WRITES_ALONE ? null : (StagedWrite) answer;
        }
        Object staged = join(table.stepName(), partition, run, batch -> {
            SortedMap<Partition, RunId> runs = new TreeMap<>();
            batch.forEach(w -> runs.put(w.member, (RunId) w.request));
            Map<Partition, StagedWrite> written = engine.stageWave(table, runs);
            Map<Partition, Object> answers = new LinkedHashMap<>();
            runs.keySet().forEach(p -> answers.put(p, written.containsKey(p) ? written.get(p) : WRITES_ALONE));
            return answers;
        });
        return staged == WRITES_ALONE ? null : (StagedWrite) staged;
    }

    /**
     * Who rebuilds each rollup partition (a month) among the members waiting at its step: the
     * latest of them writes it (its step runs {@link LayerEngine#write} after the wave has answered),
     * the others' steps write nothing ({@link Deferred}). Every other member of the month has then
     * published its own partition or ended, so the one rebuild reads what every member rebuild read
     * before, and the month is rebuilt once per wave instead of once per day.
     */
    private static Map<Partition, Object> rollupWriters(TableSpec table, List<Waiting> batch) {
        Map<Partition, Partition> latest = new HashMap<>();
        for (Waiting w : batch) {
            latest.merge(table.outputPartition(w.member), w.member, (a, b) -> a.compareTo(b) >= 0 ? a : b);
        }
        Map<Partition, Object> answers = new LinkedHashMap<>();
        for (Waiting w : batch) {
            Partition writer = latest.get(table.outputPartition(w.member));
            answers.put(w.member, writer.equals(w.member) ? WRITES_ALONE : new Deferred(table.outputPartition(w.member), writer));
        }
        return answers;
    }

    /** The answer to a member the wave's job left out: its step writes the partition itself. */
    private static final Object WRITES_ALONE = new Object();

    /** Waits at {@code step} until it is carried out for the wave; returns this member's answer. */
    private Object join(String step, Partition member, Object request, Function<List<Waiting>, Map<Partition, ?>> work) {
        int k = steps.indexOf(step);
        Waiting mine = new Waiting(member, request, work, k);
        List<Waiting> ready;
        lock.lock();
        try {
            position.put(member, k);
            waiting.computeIfAbsent(k, x -> new LinkedHashMap<>()).put(member, mine);
            ready = takeReady();
        } finally {
            lock.unlock();
        }
        permits.release();
        try {
            try {
                FaultPoints.reach(step.startsWith("gate.") ? "gate-wave:" + step : "wave:" + step);
            } finally {
                drain(ready); // the batch taken is carried out whatever the fault point does: its waiters get an answer
            }
            lock.lock();
            try {
                while (!mine.done) {
                    changed.awaitUninterruptibly();
                }
            } finally {
                lock.unlock();
            }
        } finally {
            permits.acquireUninterruptibly();
        }
        if (mine.error != null) {
            throw mine.error;
        }
        return mine.result;
    }

    @Override
    public void ended(Partition partition) {
        if (!members.contains(partition)) {
            return;
        }
        List<Waiting> ready;
        lock.lock();
        try {
            position.put(partition, ENDED);
            ready = takeReady();
        } finally {
            lock.unlock();
        }
        drain(ready);
    }

    /** How many times each shared step ran for the wave (once per wave unless members skipped it at different times). */
    public Map<String, Long> batchesByStep() {
        lock.lock();
        try {
            return new LinkedHashMap<>(batchesByStep);
        } finally {
            lock.unlock();
        }
    }

    /** Wall time of each shared step's runs for the wave, in milliseconds, by step name. */
    public Map<String, Long> msByStep() {
        lock.lock();
        try {
            Map<String, Long> out = new LinkedHashMap<>();
            nanosByStep.forEach((g, n) -> out.put(g, n / 1_000_000));
            return out;
        } finally {
            lock.unlock();
        }
    }

    /** Carries out {@code ready} and every step that becomes ready meanwhile. */
    private void drain(@Nullable List<Waiting> ready) {
        while (ready != null) {
            carryOut(ready);
            lock.lock();
            try {
                ready = takeReady();
            } finally {
                lock.unlock();
            }
        }
    }

    private void carryOut(List<Waiting> batch) {
        Map<Partition, ?> results = null;
        RuntimeException error = null;
        long start = System.nanoTime();
        try {
            results = batch.get(0).work.apply(batch);
        } catch (RuntimeException e) {
            error = e;
        } catch (Exception | Error e) {
            // Spark throws checked exceptions from Scala code; every waiter must get an answer
            error = new SluiceException("the wave's " + steps.get(batch.get(0).step) + " failed: " + e, e);
        }
        lock.lock();
        try {
            String step = steps.get(batch.get(0).step);
            batchesByStep.merge(step, 1L, Long::sum);
            nanosByStep.merge(step, System.nanoTime() - start, Long::sum);
            for (Waiting w : batch) {
                Object r = results == null ? null : results.get(w.member);
                w.result = r;
                w.error = error != null ? error : r == null
                        ? new IllegalStateException("the wave's " + step + " returned nothing for " + w.member) : null;
                w.done = true;
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The requests of the first step every member has reached, passed or ended at, removed from
     * waiting; null when none is ready. Lock held.
     */
    private @Nullable List<Waiting> takeReady() {
        for (int k = 0; k < steps.size(); k++) {
            Map<Partition, Waiting> at = waiting.get(k);
            if (at == null || at.isEmpty()) {
                continue;
            }
            int step = k;
            boolean ready = members.stream().allMatch(m -> position.getOrDefault(m, -1) >= step);
            if (ready) {
                waiting.remove(k);
                return new ArrayList<>(at.values());
            }
        }
        return null;
    }
}
