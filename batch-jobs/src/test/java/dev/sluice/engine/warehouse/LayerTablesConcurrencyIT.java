package dev.sluice.engine.warehouse;


import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.PipelineSpec;
import dev.sluice.warehouse.Warehouse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The partition runs of a backfill wave create the layer tables at the same moment (each run's
 * preparation does): on H2, two sessions' {@code CREATE SCHEMA IF NOT EXISTS} racing failed one run
 * with "object already exists" (CI of 2026-12-04, {@code BackfillIT}). Four threads released
 * together on a fresh database, twenty times: every creation succeeds and the tables are there
 * once.
 */
class LayerTablesConcurrencyIT {

    private static final int THREADS = 4;
    private static final int ROUNDS = 20;

    @Test
    void runsCreatingTheTablesAtOnceAllSucceed() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            for (int round = 0; round < ROUNDS; round++) {
                PipelineSpec spec = TestHome.flightsSpec(TestHome.freshH2Url(), "sa", "");
                try (Warehouse w = Warehouse.open(spec.warehouse(), THREADS)) {
                    CyclicBarrier start = new CyclicBarrier(THREADS);
                    List<Future<?>> runs = new ArrayList<>();
                    for (int t = 0; t < THREADS; t++) {
                        runs.add(pool.submit(() -> {
                            start.await(30, TimeUnit.SECONDS);
                            LayerTables.create(w.dsl(), spec);
                            return null;
                        }));
                    }
                    for (Future<?> run : runs) {
                        run.get(60, TimeUnit.SECONDS);
                    }
                    long expected = spec.tables().stream().mapToLong(t -> t.layer() == dev.sluice.core.Layer.BRONZE ? 1 : 2).sum();
                    long found = w.dsl().resultQuery("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema IN"
                            + " ('BRONZE', 'SILVER', 'GOLD', 'bronze', 'silver', 'gold')").fetchOne(0, Long.class);
                    assertThat(found).as("round " + round).isEqualTo(expected);
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
