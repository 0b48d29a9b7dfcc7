package dev.sluice.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.batch.backfill.Backfill;
import dev.sluice.batch.backfill.BackfillReport;
import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.config.SluiceEnvironment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * Sluice's orchestration overhead per partition: a backfill of N daily partitions of a pipeline
 * whose data work is next to nothing (three CSV rows per day through Bronze, Silver and Gold, no
 * quality checks), so that its wall time per partition is what running a partition costs apart
 * from the data: the landing and contract checks, the Spring Batch job instance and its step
 * executions, the run record, the versions published and the lineage events (issue: "backfill of
 * 182 daily partitions … orchestration overhead &lt; 50 ms/partition").
 *
 * <p>In one JVM (the process start is not per partition), on a fresh H2 file warehouse per repeat;
 * a warm-up backfill of 20 partitions first, reported apart. Repeats report median and spread.
 *
 * <p>Run: {@code mvn -q -pl bench exec:java -Dexec.mainClass=dev.sluice.bench.OverheadBench
 * -Dexec.args="[PARTITIONS] [REPEATS] [PARALLELISM]"} (defaults 182, 3, 1). Writes
 * {@code bench/target/overhead-bench.json}.
 */
public final class OverheadBench {

    private OverheadBench() {
    }

    /** What one measure found: the partitions, milliseconds per partition of each repeat, the warm-up's. */
    public record Result(int partitions, int parallelism, List<Double> msPerPartition, double warmUpMsPerPartition) {

        /** The median of the repeats. */
        public double median() {
            List<Double> s = new ArrayList<>(msPerPartition);
            Collections.sort(s);
            int n = s.size();
            return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
        }
    }

    public static void main(String[] args) throws Exception {
        int partitions = args.length > 0 ? Integer.parseInt(args[0]) : 182;
        int repeats = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        int parallelism = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        Path root = Path.of("").toAbsolutePath();
        while (root != null && !Files.exists(root.resolve("pipelines/flights.yaml"))) {
            root = root.getParent();
        }
        Path work = Files.createTempDirectory("sluice-overhead");
        Result r = measure(work, partitions, repeats, parallelism);
        ObjectNode json = new ObjectMapper().createObjectNode().put("partitions", r.partitions()).put("parallelism", r.parallelism())
                .put("median_ms_per_partition", r.median()).put("warm_up_ms_per_partition", r.warmUpMsPerPartition())
                .put("cores", Runtime.getRuntime().availableProcessors()).put("java", System.getProperty("java.version"));
        json.putPOJO("repeats_ms_per_partition", r.msPerPartition());
        Path target = (root == null ? Path.of("") : root).resolve("bench/target");
        Files.createDirectories(target);
        new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(target.resolve("overhead-bench.json").toFile(), json);
        System.out.printf(Locale.ROOT, "orchestration overhead: %.1f ms per partition (median of %d backfills of %d partitions,"
                + " parallelism %d; repeats %s; warm-up %.1f ms)%n", r.median(), repeats, partitions, parallelism, r.msPerPartition(),
                r.warmUpMsPerPartition());
    }

    /** Backfills {@code partitions} trivial partitions {@code repeats} times (after a warm-up) under {@code work}. */
    public static Result measure(Path work, int partitions, int repeats, int parallelism) throws IOException {
        LocalDate from = LocalDate.parse("2001-01-01");
        Path spec = writePipeline(work, from, partitions);
        double warmUp = backfill(work, spec, from, Math.min(20, partitions), parallelism);
        List<Double> ms = new ArrayList<>();
        for (int i = 0; i < repeats; i++) {
            ms.add(backfill(work, spec, from, partitions, parallelism));
        }
        return new Result(partitions, parallelism, ms, warmUp);
    }

    /** One backfill on a fresh warehouse: milliseconds per partition. */
    private static double backfill(Path work, Path specFile, LocalDate from, int partitions, int parallelism) {
        String url = "jdbc:h2:file:" + work.resolve("wh-" + UUID.randomUUID()).toAbsolutePath();
        PipelineSpec spec = new PipelineSpecLoader(new SluiceEnvironment(Map.of("SLUICE_HOME", work.toString(),
                "SLUICE_WAREHOUSE_URL", url)).interpolator()).load(specFile);
        try (Warehouse w = Warehouse.open(spec.warehouse(), parallelism + 4)) {
            Backfill backfill = new Backfill(new PipelineRunner(w, work), Clock.systemUTC());
            var plan = backfill.plan(spec, from, from.plusDays(partitions - 1L), false);
            BackfillReport report = backfill.run(spec, plan, new Backfill.Options(parallelism, 64, "bench"), Backfill.Progress.NONE);
            if (!report.completed()) {
                throw new IllegalStateException("the overhead backfill failed: " + report.outcomes());
            }
            return (double) report.elapsedMs() / partitions;
        }
    }

    /** A daily pipeline of three rows a day: Bronze, Silver and Gold, no checks. */
    static Path writePipeline(Path home, LocalDate from, int partitions) throws IOException {
        for (int i = 0; i < partitions; i++) {
            Path day = Files.createDirectories(home.resolve("landing/ticks/dt=" + from.plusDays(i)));
            Files.writeString(day.resolve("ticks.csv"), "code,weight\na," + i + "\nb," + (i + 1) + "\nc," + (i + 2) + "\n");
        }
        Path spec = Files.createDirectories(home.resolve("spec/contracts")).getParent();
        Files.writeString(spec.resolve("contracts/ticks.v1.yaml"), "contract: ticks\nversion: 1\ncolumns:\n"
                + "  - {name: code, type: string, nullable: false}\n  - {name: weight, type: long}\n");
        return Files.writeString(spec.resolve("ticks.yaml"), """
                pipeline: ticks
                warehouse: {url: "${SLUICE_WAREHOUSE_URL}", user: sa, password: ""}
                partitioning: {kind: daily}
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
                """);
    }
}
