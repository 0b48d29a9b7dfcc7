package dev.sluice.batch.gate;

import static org.assertj.core.api.Assertions.assertThat;

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
 * The gate barrier of a backfill wave: members working with fewer permits than members reach a
 * gate, one pass judges them all (one member ended early and one skipped the gate), and an
 * evaluation that throws — even a checked exception, as Spark does — answers every waiter.
 */
class GateBarrierTest {

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
        return new GateStep.Request(p, p, RunId.newId(), null);
    }

    /** Runs members 1..4 with 2 permits: 1 ends before any gate, 2 skips gate.a (a restart), 3 and 4 reach both. */
    private static List<String> wave(FakeEvaluator fake) throws Exception {
        Semaphore permits = new Semaphore(2, true);
        GateBarrier barrier = new GateBarrier(GATES, Set.of(day(1), day(2), day(3), day(4)), permits);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<String>> futures = new ArrayList<>();
            for (int d = 1; d <= 4; d++) {
                Partition p = day(d);
                futures.add(pool.submit(() -> {
                    permits.acquireUninterruptibly();
                    StringBuilder seen = new StringBuilder(p.key());
                    try {
                        for (String gate : GATES) {
                            if (p.equals(day(1)) || (p.equals(day(2)) && gate.equals("gate.a"))) {
                                continue;
                            }
                            barrier.evaluate(fake, gate, request(p));
                            seen.append(' ').append(gate).append(" ok");
                        }
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
                out.add(f.get());
            }
            assertThat(permits.availablePermits()).isEqualTo(2);
            return out;
        } finally {
            pool.shutdownNow();
        }
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
                "2001-01-02 failed: the quality gate failed: java.io.IOException: the JDBC read broke",
                "2001-01-03 failed: the quality gate failed: java.io.IOException: the JDBC read broke",
                "2001-01-04 failed: the quality gate failed: java.io.IOException: the JDBC read broke");
    }
}
