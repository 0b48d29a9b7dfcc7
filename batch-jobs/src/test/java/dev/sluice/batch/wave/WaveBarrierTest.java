package dev.sluice.batch.wave;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.engine.LayerEngine;
import dev.sluice.engine.StagedWrite;
import dev.sluice.engine.TransformResult;
import dev.sluice.batch.gate.GateEvaluator;
import dev.sluice.batch.gate.GateStep;
import dev.sluice.config.TableSpec;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import dev.sluice.quality.Boundary;
import dev.sluice.quality.GateResult;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import org.junit.jupiter.api.Test;

/**
 * The barrier of a backfill wave: members working with fewer permits than members reach a gate,
 * one pass judges them all (one member ended early and one skipped the gate), and an evaluation
 * that throws — even a checked exception, as Spark does — answers every waiter. A table written by
 * one job for the wave and a gate after it: a member restarting at the gate (it skips the write)
 * neither blocks the others' write nor waits for it.
 */
class WaveBarrierTest {

    private static final List<String> GATES = List.of("gate.a", "gate.b");

    /** Counts its one-pass calls and the partitions of each; throws when told to. */
    private static final class FakeEvaluator implements GateEvaluator {
        final List<List<Partition>> passes = Collections.synchronizedList(new ArrayList<>());
        final Exception failure;

        FakeEvaluator(Exception failure) {
            this.failure = failure;
        }

        @Override
        public GateResult evaluate(GateStep.Request request) {
            throw new AssertionError("a member of the wave was evaluated alone");
        }

        @Override
        public Map<Partition, GateResult> evaluateAll(List<GateStep.Request> requests) {
            passes.add(requests.stream().map(GateStep.Request::judged).sorted().toList());
            if (failure != null) {
                throw FakeEvaluator.<RuntimeException>sneaky(failure);
            }
            Map<Partition, GateResult> out = new TreeMap<>();
            requests.forEach(r -> out.put(r.judged(), new GateResult(DatasetRef.parse("t.x"), r.judged(), Boundary.SOURCE, List.of(), 1)));
            return out;
        }

        @SuppressWarnings("unchecked")
        static <E extends Throwable> E sneaky(Throwable t) throws E {
            throw (E) t;
        }
    }

    private static Partition day(int d) {
        return Partition.daily(LocalDate.of(2001, 1, d));
    }

    private static GateStep.Request request(Partition p) {
        return new GateStep.Request(p, p, RunId.newId(), null, null);
    }

    /** What one member does in the wave, appending what it saw; it may throw. */
    @FunctionalInterface
    private interface Member {
        void work(Partition p, StringBuilder seen) throws Exception;
    }

    /**
     * Runs members day 1 … {@code days}, each in its own thread holding one of {@code permits}
     * while it works, each ending in the barrier; returns what each saw ("key …", or "key … failed: message").
     */
    private static List<String> members(WaveBarrier barrier, Semaphore permits, int days, Member member) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(days);
        try {
            List<Future<String>> futures = new ArrayList<>();
            for (int d = 1; d <= days; d++) {
                Partition p = day(d);
                futures.add(pool.submit(() -> {
                    permits.acquireUninterruptibly();
                    StringBuilder seen = new StringBuilder(p.key());
                    try {
                        member.work(p, seen);
                    } catch (RuntimeException e) {
                        seen.append(" failed: ").append(e.getMessage());
                    } finally {
                        barrier.ended(p);
                        permits.release();
                    }
                    return seen.toString();
                }));
            }
            List<String> out = new ArrayList<>();
            for (Future<String> f : futures) {
                out.add(f.get(30, java.util.concurrent.TimeUnit.SECONDS));
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    /** Runs members 1..4 with 2 permits: 1 ends before any gate, 2 skips gate.a (a restart), 3 and 4 reach both. */
    private static List<String> wave(FakeEvaluator fake) throws Exception {
        Semaphore permits = new Semaphore(2, true);
        WaveBarrier barrier = new WaveBarrier(GATES, Set.of(day(1), day(2), day(3), day(4)), permits);
        List<String> out = members(barrier, permits, 4, (p, seen) -> {
            for (String gate : GATES) {
                if (p.equals(day(1)) || (p.equals(day(2)) && gate.equals("gate.a"))) {
                    continue;
                }
                barrier.evaluate(fake, gate, request(p));
                seen.append(' ').append(gate).append(" ok");
            }
        });
        assertThat(permits.availablePermits()).isEqualTo(2);
        return out;
    }

    @Test
    void eachGateJudgesTheWaveInOnePass() {
        FakeEvaluator fake = new FakeEvaluator(null);
        List<String> seen = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(30), () -> wave(fake));
        assertThat(seen).containsExactly("2001-01-01", "2001-01-02 gate.b ok", "2001-01-03 gate.a ok gate.b ok",
                "2001-01-04 gate.a ok gate.b ok");
        assertThat(fake.passes).containsExactly(List.of(day(3), day(4)), List.of(day(2), day(3), day(4)));
    }

    @Test
    void anEvaluationThatThrowsACheckedExceptionAnswersEveryWaiter() {
        FakeEvaluator fake = new FakeEvaluator(new java.io.IOException("the JDBC read broke"));
        List<String> seen = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(30), () -> wave(fake));
        assertThat(seen).containsExactly("2001-01-01",
                "2001-01-02 failed: the wave's gate.b failed: java.io.IOException: the JDBC read broke",
                "2001-01-03 failed: the wave's gate.a failed: java.io.IOException: the JDBC read broke",
                "2001-01-04 failed: the wave's gate.a failed: java.io.IOException: the JDBC read broke");
    }

    /** A layer engine that writes waves: it records each wave's partitions and stages version 7 for each, its rows its day of month. */
    private static LayerEngine wavesOf(List<List<Partition>> waves) {
        return (LayerEngine) java.lang.reflect.Proxy.newProxyInstance(LayerEngine.class.getClassLoader(), new Class<?>[] {LayerEngine.class},
                (proxy, method, args) -> {
                    if (!method.getName().equals("stageWave")) {
                        throw new AssertionError("unexpected call " + method.getName());
                    }
                    @SuppressWarnings("unchecked")
                    java.util.SortedMap<Partition, RunId> runs = (java.util.SortedMap<Partition, RunId>) args[1];
                    waves.add(List.copyOf(runs.keySet()));
                    Map<Partition, StagedWrite> out = new TreeMap<>();
                    runs.keySet().forEach(p -> out.put(p, () -> new TransformResult(0, Long.parseLong(p.key().substring(8)), 0, 0, 7, false)));
                    return out;
                });
    }

    @Test
    void aTableWrittenByOneJobThenItsGateWhileOneMemberRestartsAtTheGate() throws Exception {
        TableSpec table = dev.sluice.batch.testkit.TestHome.flightsSpec("jdbc:h2:mem:unused", "sa", "")
                .table(DatasetRef.parse("silver.flights")).orElseThrow();
        List<String> steps = List.of(table.stepName(), "gate.a");
        List<List<Partition>> waves = Collections.synchronizedList(new ArrayList<>());
        LayerEngine engine = wavesOf(waves);
        FakeEvaluator fake = new FakeEvaluator(null);
        Semaphore permits = new Semaphore(1, true);
        WaveBarrier barrier = new WaveBarrier(steps, Set.of(day(1), day(2), day(3)), permits);
        List<String> out = members(barrier, permits, 3, (p, seen) -> {
            if (!p.equals(day(1))) { // day 1 restarts at its gate: its write is done
                StagedWrite w = barrier.stage(engine, table, p, RunId.newId());
                seen.append(" wrote ").append(w.record().outputRows());
            }
            barrier.evaluate(fake, "gate.a", request(p));
            seen.append(" judged");
        });
        assertThat(permits.availablePermits()).isEqualTo(1);
        assertThat(out).containsExactly("2001-01-01 judged", "2001-01-02 wrote 2 judged", "2001-01-03 wrote 3 judged");
        assertThat(waves).containsExactly(List.of(day(2), day(3)));
        assertThat(fake.passes).containsExactly(List.of(day(1), day(2), day(3)));
        assertThat(barrier.batchesByStep()).containsExactlyInAnyOrderEntriesOf(Map.of(table.stepName(), 1L, "gate.a", 1L));
        assertThat(barrier.stage(engine, table, day(9), RunId.newId())).as("not a member: writes alone").isNull();
    }
}
