package dev.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.backfill.Backfill;
import dev.sluice.batch.backfill.BackfillPlan;
import dev.sluice.batch.backfill.BackfillReport;
import dev.sluice.batch.backfill.PartitionOutcome;
import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.warehouse.Warehouse;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A parallel backfill on PostgreSQL, the production warehouse: its workers create Spring Batch job
 * instances at the same moment. With Spring Batch's default SERIALIZABLE isolation for those
 * inserts, PostgreSQL aborts one of two concurrent creations at commit ("could not serialize
 * access"), and the partition failed to start ("JDBC commit failed"); the benchmark's Bronze
 * backfill of 182 days hit it twice in two tries. Many short partitions make the starts collide.
 */
class BackfillPostgresIT {

    private static final int DAYS = 120;

    @TempDir
    Path home;

    @Test
    void everyPartitionOfAParallelBackfillStartsAndCompletes() throws Exception {
        LocalDate from = LocalDate.parse("2024-01-01");
        for (int i = 0; i < DAYS; i++) {
            Path day = Files.createDirectories(home.resolve("landing/ticks/dt=" + from.plusDays(i)));
            Files.writeString(day.resolve("ticks.csv"), "code,weight\na," + i + "\nb," + (i + 1) + "\n");
        }
        Path specFile = TestHome.writePipeline(home, "ticks", """
                contract: ticks
                version: 1
                columns:
                  - {name: code, type: string, nullable: false}
                  - {name: weight, type: long}
                """, """
                pipeline: ticks
                warehouse: {url: "${SLUICE_WAREHOUSE_URL}", user: "${SLUICE_WAREHOUSE_USER}", password: ""}
                partitioning: {kind: daily}
                backfill_window: P100000D
                sources:
                  - {name: ticks, format: csv, path: "${SLUICE_HOME}/landing/ticks/dt={partition}", contract: contracts/ticks.v1.yaml}
                layers:
                  bronze: [{table: bronze.ticks_raw, source: ticks}]
                  silver:
                    - table: silver.ticks
                      input: bronze.ticks_raw
                      key: [code]
                      columns: {code: string, weight: long}
                      sql: SELECT code, weight FROM {input} t
                  gold:
                    - table: gold.tick_weight
                      input: silver.ticks
                      key: [codes]
                      columns: {codes: long, weight: long}
                      sql: SELECT COUNT(*) AS codes, SUM(weight) AS weight FROM {input} s
                design_exemptions:
                  - {rule: gates.source, reason: a test of concurrent job starts}
                  - {rule: gates.transform, reason: a test of concurrent job starts}
                  - {rule: gates.sink, reason: a test of concurrent job starts}
                """);
        try (EmbeddedPostgres pg = EmbeddedPostgres.builder().start()) {
            PipelineSpec spec = new PipelineSpecLoader(TestHome.environment(home, pg.getJdbcUrl("postgres", "postgres"), "postgres", "")
                    .interpolator()).load(specFile);
            try (Warehouse w = Warehouse.open(spec.warehouse(), 8)) {
                Backfill backfill = new Backfill(new PipelineRunner(w, home), Clock.systemUTC());
                BackfillPlan plan = backfill.plan(spec, from, from.plusDays(DAYS - 1L), false);
                BackfillReport report = backfill.run(spec, plan, new Backfill.Options(4, 64, "test"), Backfill.Progress.NONE);

                assertThat(report.outcomes()).extracting(o -> o.status().name()).as("%s", report.outcomes())
                        .hasSize(DAYS).containsOnly("COMPLETED");
                assertThat(w.dsl().fetchCount(DSL.table(DSL.name("bronze", "ticks_raw")))).isEqualTo(2 * DAYS);
                assertThat(w.dsl().fetchCount(DSL.table(DSL.name("sluice", "batch_job_instance")))).isEqualTo(DAYS);
                // Gold: per day, codes = 2 and weight = i + (i + 1); summed over the days, 120 × 119 + 120 = 14,400
                assertThat(sum(w, "weight")).isEqualTo((long) DAYS * DAYS);
                assertThat(sum(w, "codes")).isEqualTo(2L * DAYS);
            }
        }
    }

    private static long sum(Warehouse w, String column) {
        return w.dsl().select(DSL.sum(DSL.field(DSL.name(column), Long.class))).from(DSL.table(DSL.name("gold", "tick_weight")))
                .fetchOne(0, Long.class);
    }
}
