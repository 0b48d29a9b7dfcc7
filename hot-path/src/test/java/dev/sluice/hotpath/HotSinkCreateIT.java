package dev.sluice.hotpath;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.PipelineSpec;
import dev.sluice.warehouse.Warehouse;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Consumers starting together on a fresh PostgreSQL database each create the hot path's tables
 * ({@link HotSink#create}: the sink's schema and table, the window table with its lock row, the
 * contents table of a {@code distinct_by_content} window seeded from the sink). Four creators,
 * each with its own connection pool as four processes would have (Sluice's metadata tables are
 * migrated first, one at a time under Flyway's lock), released together, 8 rounds, a new database
 * each: every creation succeeds and leaves each table once, each window's lock row
 * once. PostgreSQL's {@code CREATE … IF NOT EXISTS} is not atomic across sessions (a second
 * session's create of the same name can fail on the catalog's unique index, "duplicate key value
 * violates unique constraint pg_type_typname_nsp_index").
 */
class HotSinkCreateIT {

    private static final int CREATORS = 4;
    private static final int ROUNDS = 8;

    @TempDir
    Path home;

    @Test
    void creatorsStartingTogetherAllSucceed() throws Exception {
        try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().start()) {
            for (int round = 0; round < ROUNDS; round++) {
                String db = "fresh" + round;
                try (var c = postgres.getPostgresDatabase().getConnection(); var st = c.createStatement()) {
                    st.execute("CREATE DATABASE " + db);
                }
                PipelineSpec spec = TestPipelines.write(java.nio.file.Files.createDirectories(home.resolve(db)), "dup",
                        TestPipelines.CODED_VALUES, postgres.getJdbcUrl("postgres", db), "postgres", TestPipelines.hotPath("dup", "PT1H", """
                        - {table: gold.dup_windows, kind: tumbling, size: PT60S, group_by: [code], distinct_by_content: true, measures: {n: count}}
                        - {table: gold.dup_sessions, kind: session, gap: PT60S, group_by: [code], measures: {n: count}}
                        """));
                ExecutorService pool = Executors.newFixedThreadPool(CREATORS);
                try {
                    CyclicBarrier start = new CyclicBarrier(CREATORS);
                    List<Future<?>> creators = new ArrayList<>();
                    for (int i = 0; i < CREATORS; i++) {
                        creators.add(pool.submit(() -> {
                            try (Warehouse w = Warehouse.open(spec.warehouse(), 2)) {
                                HotSink sink = new HotSink("dup", spec.hotPath(), spec.source("dup").orElseThrow().contract());
                                w.dsl().selectOne().fetch(); // the connection is open before the creators are released
                                start.await(30, TimeUnit.SECONDS);
                                sink.create(w.dsl());
                            }
                            return null;
                        }));
                    }
                    for (Future<?> f : creators) {
                        f.get(2, TimeUnit.MINUTES);
                    }
                } finally {
                    pool.shutdownNow();
                }
                try (Warehouse w = Warehouse.open(spec.warehouse(), 2)) {
                    assertThat(w.dsl().resultQuery("SELECT table_schema || '.' || table_name FROM information_schema.tables"
                            + " WHERE table_schema IN ('bronze', 'gold') ORDER BY 1").fetch(0, String.class))
                            .as("round %d", round)
                            .containsExactly("bronze.dup_events", "gold.dup_sessions", "gold.dup_windows", "gold.dup_windows_content_keys");
                    assertThat(w.dsl().resultQuery("SELECT window_table FROM sluice.hot_window_lock ORDER BY 1").fetch(0, String.class))
                            .as("round %d: one lock row per window", round).containsExactly("gold.dup_sessions", "gold.dup_windows");
                    assertThat(w.dsl().resultQuery("SELECT COUNT(*) FROM gold.dup_windows_content_keys").fetchOne(0, Long.class)).isZero();
                    assertThat(w.dsl().resultQuery("SELECT indexname FROM pg_indexes WHERE schemaname = 'bronze' ORDER BY 1").fetch(0, String.class))
                            .as("the sink's indexes: no content index on PostgreSQL (windows claim contents instead)")
                            .containsExactly("dup_events_pkey", "dup_events_time_ix");
                }
            }
        }
    }

    /**
     * Across processes the JVM's lock does not help: another session holding the advisory lock
     * ({@link HotSink#CREATE_LOCK_KEY}) keeps a creator waiting, with nothing created, until it lets go.
     */
    @Test
    void aCreatorWaitsWhileAnotherSessionHoldsTheAdvisoryLock() throws Exception {
        try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().start()) {
            String url = postgres.getJdbcUrl("postgres", "postgres");
            PipelineSpec spec = TestPipelines.write(home, "dup", TestPipelines.CODED_VALUES, url, "postgres", TestPipelines.hotPath("dup", "PT1H", """
                    - {table: gold.dup_windows, kind: tumbling, size: PT60S, group_by: [code], distinct_by_content: true, measures: {n: count}}
                    """));
            ExecutorService pool = Executors.newSingleThreadExecutor();
            try (Warehouse w = Warehouse.open(spec.warehouse(), 2); java.sql.Connection other = postgres.getPostgresDatabase().getConnection();
                    java.sql.Statement st = other.createStatement()) {
                st.execute("SELECT pg_advisory_lock(" + HotSink.CREATE_LOCK_KEY + ")");
                HotSink sink = new HotSink("dup", spec.hotPath(), spec.source("dup").orElseThrow().contract());
                Future<?> creating = pool.submit(() -> sink.create(w.dsl()));
                long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
                while (waiting(st) == 0) { // polled: the creator's session shows up waiting for the lock
                    assertThat(System.nanoTime()).as("the creator waits for the advisory lock within a minute").isLessThan(deadline);
                    assertThat(creating.isDone()).as("the creator ended without waiting").isFalse();
                    Thread.sleep(20);
                }
                try (java.sql.ResultSet r = st.executeQuery("SELECT to_regclass('bronze.dup_events') IS NULL")) {
                    assertThat(r.next() && r.getBoolean(1)).as("nothing created while the lock is held elsewhere").isTrue();
                }
                st.execute("SELECT pg_advisory_unlock(" + HotSink.CREATE_LOCK_KEY + ")");
                creating.get(1, TimeUnit.MINUTES);
                assertThat(w.dsl().resultQuery("SELECT COUNT(*) FROM gold.dup_windows_content_keys").fetchOne(0, Long.class)).isZero();
            } finally {
                pool.shutdownNow();
            }
        }
    }

    /** Sessions waiting for an advisory lock. */
    private static int waiting(java.sql.Statement st) throws java.sql.SQLException {
        try (java.sql.ResultSet r = st.executeQuery("SELECT COUNT(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")) {
            r.next();
            return r.getInt(1);
        }
    }
}
