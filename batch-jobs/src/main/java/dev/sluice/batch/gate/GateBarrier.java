package dev.sluice.batch.gate;

import dev.sluice.core.FaultPoints;
import dev.sluice.core.Partition;
import dev.sluice.core.SluiceException;
import dev.sluice.quality.GateResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Gathers the gate evaluations of a set of partitions running at once (a backfill wave) so that
 * each gate judges all of them in one pass ({@link GateStep#evaluateAll}). A partition's gate step
 * waits until every member has reached that gate, passed it (a restart that skips it) or ended;
 * then one of the waiting threads evaluates them all and hands each its own result. While it
 * waits, a member gives back its work permit so that the others can reach the gate: members hold
 * a permit of {@code permits} whenever they work, never while they wait (no deadlock with fewer
 * permits than members). Gates are ordered as the job runs them. Thread-safe.
 */
public final class GateBarrier implements GateEvaluations {

    private static final int ENDED = Integer.MAX_VALUE;

    private final List<String> gates;
    private final Set<Partition> members;
    private final Semaphore permits;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final Map<Partition, Integer> position = new HashMap<>();
    private final Map<Integer, Map<Partition, Waiting>> waiting = new HashMap<>();
    private long batches;
    private final Map<String, Long> nanosByGate = new TreeMap<>();

    /**
     * @param gates the gate step names in the order a job runs them
     * @param members the partitions whose gates are gathered; each must call {@link #ended} when its job ends
     * @param permits the work permits the members hold while they work
     */
    public GateBarrier(List<String> gates, Set<Partition> members, Semaphore permits) {
        this.gates = List.copyOf(gates);
        this.members = Set.copyOf(members);
        this.permits = permits;
    }

    /** A member's request waiting at a gate, and what it gets back. */
    private static final class Waiting {
        final GateEvaluator step;
        final GateStep.Request request;
        final int gate;
        GateResult result;
        RuntimeException error;
        boolean done;

        Waiting(GateEvaluator step, GateStep.Request request, int gate) {
            this.step = step;
            this.request = request;
            this.gate = gate;
        }
    }

    @Override
    public GateResult evaluate(GateEvaluator step, String gate, GateStep.Request request) {
        int k = gates.indexOf(gate);
        Partition p = request.partition();
        if (k < 0 || !members.contains(p)) {
            return step.evaluate(request);
        }
        Waiting mine = new Waiting(step, request, k);
        List<Waiting> ready;
        lock.lock();
        try {
            position.put(p, k);
            waiting.computeIfAbsent(k, x -> new LinkedHashMap<>()).put(p, mine);
            ready = takeReady();
        } finally {
            lock.unlock();
        }
        permits.release();
        try {
            FaultPoints.reach("gate-wave:" + gate);
            drain(ready);
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

    /** How many one-pass evaluations ran (a gate of a wave is one). */
    public long batches() {
        lock.lock();
        try {
            return batches;
        } finally {
            lock.unlock();
        }
    }

    /** Wall time of the one-pass evaluations per gate step name, in milliseconds. */
    public Map<String, Long> evaluationMsByGate() {
        lock.lock();
        try {
            Map<String, Long> out = new LinkedHashMap<>();
            nanosByGate.forEach((g, n) -> out.put(g, n / 1_000_000));
            return out;
        } finally {
            lock.unlock();
        }
    }

    /** Evaluates {@code ready} and every gate that becomes ready meanwhile. */
    private void drain(List<Waiting> ready) {
        while (ready != null) {
            evaluate(ready);
            lock.lock();
            try {
                ready = takeReady();
            } finally {
                lock.unlock();
            }
        }
    }

    private void evaluate(List<Waiting> batch) {
        Map<Partition, GateResult> results = null;
        RuntimeException error = null;
        long start = System.nanoTime();
        try {
            results = batch.get(0).step.evaluateAll(batch.stream().map(w -> w.request).toList());
        } catch (RuntimeException e) {
            error = e;
        } catch (Exception | Error e) {
            // Spark throws checked exceptions from Scala code; every waiter must get an answer
            error = new SluiceException("the quality gate failed: " + e, e);
        }
        lock.lock();
        try {
            batches++;
            long spent = System.nanoTime() - start;
            nanosByGate.merge(gates.get(batch.get(0).gate), spent, Long::sum);
            for (Waiting w : batch) {
                GateResult r = results == null ? null : results.get(w.request.judged());
                w.result = r;
                w.error = error != null ? error : r == null
                        ? new IllegalStateException("the batch evaluation returned nothing for " + w.request.judged()) : null;
                w.done = true;
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The requests of the first gate every member has reached, passed or ended at, removed from
     * waiting; null when none is ready. Lock held.
     */
    private List<Waiting> takeReady() {
        for (int k = 0; k < gates.size(); k++) {
            Map<Partition, Waiting> at = waiting.get(k);
            if (at == null || at.isEmpty()) {
                continue;
            }
            int gate = k;
            boolean ready = members.stream().allMatch(m -> position.getOrDefault(m, -1) >= gate);
            if (ready) {
                waiting.remove(k);
                return new ArrayList<>(at.values());
            }
        }
        return null;
    }
}
