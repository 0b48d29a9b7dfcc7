package dev.sluice.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.springframework.util.FileSystemUtils;

/**
 * Every benchmark against its baseline, side by side in one run on one machine, written to
 * {@code benchmarks.md} (the table: measure, Sluice, baseline, ratio, goal) and
 * {@code benchmarks.json} (every repeat, warm-ups, the machine). The command is
 * {@code ./sluice-bench} at the project root.
 *
 * <p>Arguments: {@code --home DIR} (a Sluice home with the sample landing zone, from
 * {@code sluice sample-data}), {@code --out DIR} (where the two files go), {@code --smoke} (a
 * seconds-long run over 2 days that skips the whole-process measures: CI runs it so the bench does
 * not rot), {@code --repeats N} (in-process measures, default 3), {@code --process-repeats N}
 * (whole-process measures, default 1: one bulk medallion takes about 10 minutes here),
 * {@code --only a,b} (measure names: bronze, medallion, backfill, lakehouse, growth, overhead, hotpath,
 * hotsink: {@link HotSinkBench}, its peers' JVMs included, so not in the smoke run unless named, lineage,
 * lineage-scale: {@link LineageScaleBench}, at the sizes of {@code -Dsluice.bench.lineageSizes} (default
 * 10000,100000,1000000 runs) on {@code -Dsluice.bench.lineageBackends} (default h2,postgresql); not in the smoke run),
 * {@code --render} (no measure: {@code benchmarks.md} again from {@code --out}'s
 * {@code benchmarks.json} and the current notes).
 *
 * <p>The work directory (about 15 GB after a full run) is deleted at the end unless
 * {@code -Dsluice.bench.keep=true}; a failed run keeps it. A whole-process measure that has not
 * ended after {@code -Dsluice.bench.processTimeoutMinutes} (default 60) is stopped and fails the
 * run, its thread dump kept.
 *
 * <p>Each measure reports the median and the spread (min–max) of its repeats; a warm-up is run
 * first where the measure is in-process and reported apart.
 */
public final class BenchSuite {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** How a row's figure (the ratio with a baseline, else Sluice's median) meets its goal. */
    enum Compare {
        AT_LEAST, AT_MOST, BELOW,
        /** No goal: the figure is reported. */
        REPORT;

        boolean met(double figure, double goal) {
            return switch (this) {
                case AT_LEAST -> figure >= goal;
                case AT_MOST -> figure <= goal;
                case BELOW -> figure < goal;
                case REPORT -> true;
            };
        }
    }

    /** How big a run is. */
    record Settings(boolean smoke, int repeats, int processRepeats, LocalDate from, LocalDate to, int overheadPartitions,
            int hotEvents, int hotRate, int hotSeconds, int lineageRuns, List<String> only, List<Integer> growth) {

        /** The growth measure's sizes by default: the real data, 3× and 10× (3M, 9M, 30M rows). */
        static final List<Integer> GROWTH = List.of(1, 3, 10);

        static Settings full(int repeats, int processRepeats, List<String> only) {
            return new Settings(false, repeats, processRepeats, LocalDate.parse("2001-01-01"), LocalDate.parse("2001-07-01"), 182,
                    300_000, 10_000, 30, 10_000, only, GROWTH);
        }

        static Settings smoke(List<String> only) {
            return new Settings(true, 1, 0, LocalDate.parse("2001-01-02"), LocalDate.parse("2001-01-03"), 4, 5_000, 1_000, 3, 500, only,
                    List.of());
        }

        /** These settings over the first {@code days} days only (a quick look at a whole-process measure). */
        Settings days(int days) {
            return new Settings(smoke, repeats, processRepeats, from, from.plusDays(days - 1L), overheadPartitions, hotEvents, hotRate,
                    hotSeconds, lineageRuns, only, growth);
        }

        Settings growth(List<Integer> scales) {
            return new Settings(smoke, repeats, processRepeats, from, to, overheadPartitions, hotEvents, hotRate, hotSeconds, lineageRuns,
                    only, scales);
        }

        boolean runs(String measure) {
            return only.isEmpty() || only.contains(measure);
        }

        int days() {
            return (int) (to.toEpochDay() - from.toEpochDay() + 1);
        }
    }

    private BenchSuite() {
    }

    /** The measures {@code --only} may name. */
    static final List<String> MEASURES = List.of("bronze", "medallion", "backfill", "lakehouse", "growth", "overhead", "hotpath", "hotsink",
            "lineage", "lineage-scale");
    private static final String USAGE = "usage: ./sluice-bench [--smoke] [--repeats N] [--process-repeats N] [--only "
            + String.join(",", MEASURES) + "] [--growth 1,3,10] [--days N] [--render]";

    public static void main(String[] args) throws Exception {
        Path home = null;
        Path out = null;
        boolean smoke = false;
        int repeats = 3;
        int processRepeats = 1;
        List<String> only = List.of();
        List<Integer> growth = Settings.GROWTH;
        int days = 0;
        boolean render = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--render" -> render = true;
                case "--home" -> home = Path.of(value(args, i++)).toAbsolutePath();
                case "--out" -> out = Path.of(value(args, i++)).toAbsolutePath();
                case "--smoke" -> smoke = true;
                case "--repeats" -> repeats = count(args, i++, 1);
                case "--process-repeats" -> processRepeats = count(args, i++, 0);
                case "--only" -> only = measures(value(args, i++));
                case "--growth" -> growth = scales(value(args, i++));
                case "--days" -> days = count(args, i++, 1);
                default -> refuse("unknown argument " + args[i]);
            }
        }
        if (out == null) {
            refuse("--out DIR is required");
        }
        if (render) {
            // the table again from the run's JSON, with the current notes: no measure runs
            Path json = out.resolve("benchmarks.json");
            if (!Files.isRegularFile(json)) {
                refuse("--render rewrites benchmarks.md from " + json + ", which does not exist: run the bench first");
            }
            ObjectNode saved = (ObjectNode) JSON.readTree(json.toFile());
            Files.writeString(out.resolve("benchmarks.md"), BenchReport.markdown(saved));
            System.out.println("rewrote " + out.resolve("benchmarks.md") + " from " + json);
            return;
        }
        if (home == null || !Files.isDirectory(home.resolve("landing/flights"))) {
            refuse("--home must name a Sluice home with landing/flights (java -jar app/target/sluice.jar sample-data)");
        }
        Settings settings = (smoke ? Settings.smoke(only) : Settings.full(repeats, processRepeats, only)).growth(growth);
        if (days > 0) {
            settings = settings.days(days);
        }
        // only the full run writes benchmarks.*: a smoke or partial run never replaces it
        String stem = smoke ? "benchmarks-smoke" : only.isEmpty() ? "benchmarks" : "benchmarks-only-" + String.join("-", only);
        Path work = Files.createTempDirectory("sluice-bench");
        AtomicBoolean ended = new AtomicBoolean();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            if (!ended.get()) {
                cleanUpInterrupted(work);
            }
        }));
        ObjectNode report;
        try {
            report = run(HotPathBench.root(), home, work, settings);
        } catch (Exception | Error e) {
            ended.set(true);
            // what the failed measure left (a process's output, a hung process's threads) is kept
            System.err.println("the bench failed; its work directory is kept for the cause: " + work);
            throw e;
        }
        ended.set(true);
        // the warehouses, databases and broker logs of a full run take about 15 GB
        if (!Boolean.getBoolean("sluice.bench.keep")) {
            FileSystemUtils.deleteRecursively(work);
        }
        if (report.get("rows").isEmpty()) {
            refuse("no measure of " + (only.isEmpty() ? "this run" : String.join(",", only))
                    + " runs in " + (smoke ? "the smoke run (it skips the whole-process measures)" : "this run") + "; nothing was written");
        }
        write(report, out, stem);
        System.out.println("wrote " + out.resolve(stem + ".md") + " and " + out.resolve(stem + ".json"));
    }

    /** Ctrl-C or SIGTERM mid-run: stops the broker and sluice processes the run started and drops its files. */
    private static void cleanUpInterrupted(Path work) {
        ProcessHandle.current().descendants().forEach(ProcessHandle::destroy);
        ProcessHandle.current().descendants().forEach(h -> h.onExit().completeOnTimeout(h, 10, TimeUnit.SECONDS).join());
        FileSystemUtils.deleteRecursively(work.toFile());
        System.err.println("sluice-bench interrupted: its processes were stopped and " + work + " deleted; nothing was written");
    }

    private static String value(String[] args, int i) {
        if (i + 1 >= args.length || args[i + 1].startsWith("--")) {
            refuse(args[i] + " needs a value");
        }
        return args[i + 1];
    }

    private static int count(String[] args, int i, int least) {
        String v = value(args, i);
        try {
            int n = Integer.parseInt(v);
            if (n >= least) {
                return n;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        refuse(args[i] + " takes a whole number of at least " + least + ", not " + v);
        return least;
    }

    private static List<String> measures(String list) {
        List<String> names = List.of(list.split(","));
        for (String n : names) {
            if (!MEASURES.contains(n)) {
                refuse("--only: no measure named '" + n + "'");
            }
        }
        return names;
    }

    /**
     * The full lakehouse backfill at each scale of {@link Settings#growth} ({@link FlightsScaler}:
     * every row n times, copy k k ms later) beside DuckDB on the same files: seconds per million
     * rows, the growth from the smallest to the largest size, and the process's peak RSS.
     */
    private static void growth(Path root, Path home, Path work, Settings s, ArrayNode rows, ObjectNode details) throws Exception {
        if (s.processRepeats() == 0 || s.growth().isEmpty()) {
            details.put("growth", "skipped: whole-process measures do not run in the smoke run");
            return;
        }
        Path jar = root.resolve("app/target/sluice.jar");
        ObjectNode out = details.putObject("growth");
        java.util.TreeMap<Integer, Double> seconds = new java.util.TreeMap<>();
        java.util.TreeMap<Integer, Double> rss = new java.util.TreeMap<>();
        List<GrowthCheck.Size> sizes = new ArrayList<>();
        for (int n : s.growth()) {
            // 1×: the landed files as they are (a copy would be the same rows written again)
            Path scaled = n == 1 ? home : work.resolve("growth-" + n);
            FlightsScaler.Scaled data = n == 1 ? FlightsScaler.count(home, s.from(), s.to()) : FlightsScaler.scale(home, scaled, n, s.from(), s.to());
            double millions = data.rows() / 1e6;
            List<Double> duckS = new ArrayList<>();
            Path duckDir = Files.createDirectories(work.resolve("growth-duckdb-" + n));
            Path duckHome = BackfillBench.prepareHome(scaled, duckDir, s.from(), s.to());
            for (int i = 0; i <= s.repeats(); i++) {
                long t = System.nanoTime();
                DuckDbMedallion.run(duckHome.resolve("bulk-landing/flights"), scaled.resolve("landing/airports/airports.csv"),
                        duckDir.resolve("medallion-" + i + ".duckdb"));
                if (i > 0) {
                    duckS.add((System.nanoTime() - t) / 1e9);
                }
            }
            List<BackfillBench.Sample> lake = BackfillBench.measure(root, jar, scaled, Files.createDirectories(work.resolve("growth-run-" + n)),
                    s.from(), s.to(), s.processRepeats(), 2, 64, List.of("lake-backfill"),
                    n * BackfillBench.processTimeoutMinutes()).get("lake-backfill");
            for (BackfillBench.Sample x : lake) {
                if (!x.totals().equals(lake.get(0).totals())) {
                    throw new IllegalStateException("growth at " + n + "×: the repeats' run reports differ: " + lake.get(0).totals() + ", " + x.totals());
                }
            }
            sizes.add(new GrowthCheck.Size(n, lake.get(0).totals(), DuckDbMedallion.marts(duckDir.resolve("medallion-" + s.repeats() + ".duckdb"))));
            ObjectNode one = out.putObject(n + "x");
            one.put("rows", data.rows());
            one.set("sluice_totals", JSON.valueToTree(lake.get(0).totals()));
            one.set("duckdb_marts", JSON.valueToTree(sizes.get(sizes.size() - 1).duckdb()));
            one.set("lake_backfill", JSON.valueToTree(lake));
            one.set("duckdb_s", JSON.valueToTree(duckS));
            List<Double> perMillion = lake.stream().map(x -> x.wallS() / millions).toList();
            row(rows, String.format(Locale.ROOT, "growth: lakehouse backfill at %d× (%,d rows), s per million rows", n, data.rows()),
                    perMillion, duckS.stream().map(x -> x / millions).toList(), "DuckDB on the same files, s per million rows",
                    Compare.AT_MOST, 4.0, "≤ 4× DuckDB's", "s/Mrows");
            row(rows, String.format(Locale.ROOT, "growth: peak RSS of that backfill's process at %d×, MiB", n),
                    lake.stream().map(BackfillBench.Sample::peakRssMib).toList(), null, "—", Compare.REPORT, 0, "flat (reported)", "MiB");
            seconds.put(n, Spread.of(lake.stream().map(BackfillBench.Sample::wallS).toList()).median());
            rss.put(n, Spread.of(lake.stream().map(BackfillBench.Sample::peakRssMib).toList()).median());
        }
        for (GrowthCheck.Size size : sizes.subList(1, sizes.size())) {
            List<String> problems = GrowthCheck.problems(sizes.get(0), size);
            if (!problems.isEmpty()) {
                throw new IllegalStateException("growth: the load at " + size.scale() + "× is not the load at " + sizes.get(0).scale()
                        + "× scaled:\n  " + String.join("\n  ", problems));
            }
        }
        out.put("check", sizes.size() > 1 ? "every size's Sluice row counts and DuckDB marts agree with the smallest size's, scaled"
                : "one size: nothing to compare");
        if (seconds.size() > 1) {
            int small = seconds.firstKey();
            int large = seconds.lastKey();
            double growth = (double) large / small;
            row(rows, String.format(Locale.ROOT, "growth: lakehouse backfill time at %d× the data over its time at %d×", large, small),
                    List.of(seconds.get(large) / seconds.get(small)), null, "—", Compare.AT_MOST, growth * 1.1,
                    String.format(Locale.ROOT, "≤ %.1f (linear + 10 %%)", growth * 1.1), "×");
            row(rows, String.format(Locale.ROOT, "growth: peak RSS at %d× the data over peak RSS at %d×", large, small),
                    List.of(rss.get(large) / rss.get(small)), null, "—", Compare.REPORT, 0, "≈ 1 (reported)", "×");
        }
    }

    private static List<Integer> scales(String csv) {
        List<Integer> out = new ArrayList<>();
        for (String v : csv.split(",")) {
            try {
                out.add(Integer.parseInt(v.trim()));
            } catch (NumberFormatException e) {
                refuse("--growth: '" + v + "' is not a whole number");
            }
            if (out.get(out.size() - 1) < 1) {
                refuse("--growth: a scale is at least 1");
            }
        }
        return List.copyOf(out);
    }

    private static void refuse(String why) {
        System.err.println("sluice-bench: " + why + "\n" + USAGE);
        System.exit(2);
    }

    /** Runs the measures {@code s} names; returns the report (its {@code rows} are the table). */
    static ObjectNode run(Path root, Path home, Path work, Settings s) throws Exception {
        ObjectNode report = JSON.createObjectNode();
        report.put("started_at", OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS).toString());
        report.set("machine", BackfillBench.machine().put("max_heap_mb", Runtime.getRuntime().maxMemory() >> 20));
        report.put("smoke", s.smoke()).put("repeats", s.repeats()).put("process_repeats", s.processRepeats())
                .put("days", s.days()).put("from", s.from().toString()).put("to", s.to().toString());
        ArrayNode rows = report.putArray("rows");
        ObjectNode details = report.putObject("details");
        List<Double> duck = new ArrayList<>();
        if (s.runs("bronze")) {
            BronzeIngestBench.Result r = BronzeIngestBench.measure(root, home, Files.createDirectories(work.resolve("bronze")), s.from(), s.to(),
                    s.repeats());
            details.set("bronze", JSON.valueToTree(r));
            String rows3m = String.format(Locale.ROOT, "%,d", r.rows().get(BronzeIngestBench.Side.SLUICE));
            String sluiceOne = "Sluice, one COPY stream (the " + s.days() + " days as one partition)";
            String sluicePar = "Sluice, `sluice backfill` of the Bronze table, one partition per day, parallelism " + BronzeIngestBench.PARALLELISM;
            String plain = "Spring Batch job: Parquet reader → JdbcBatchItemWriter, chunk 1,000";
            String rewrite = plain + ", `reWriteBatchedInserts=true`";
            for (BronzeIngestBench.Side side : List.of(BronzeIngestBench.Side.SLUICE, BronzeIngestBench.Side.SLUICE_PARTITIONED)) {
                for (BronzeIngestBench.Side base : List.of(BronzeIngestBench.Side.BASELINE, BronzeIngestBench.Side.BASELINE_REWRITE)) {
                    row(rows, "Bronze ingest, rows/s (flights, " + s.days() + " days, " + rows3m + " rows, PostgreSQL): "
                            + (side == BronzeIngestBench.Side.SLUICE ? sluiceOne : sluicePar),
                            r.of(side), r.of(base), base == BronzeIngestBench.Side.BASELINE ? plain : rewrite,
                            Compare.AT_LEAST, 3.0, "≥ 3× faster", "rows/s");
                }
            }
            String lake = "Sluice, lakehouse engine, one stream (Iceberg Parquet files; catalog and control plane on PostgreSQL)";
            row(rows, "Bronze ingest, rows/s (flights, " + s.days() + " days, " + rows3m + " rows): " + lake,
                    r.of(BronzeIngestBench.Side.SLUICE_LAKEHOUSE), r.of(BronzeIngestBench.Side.BASELINE), plain + " (PostgreSQL)",
                    Compare.AT_LEAST, 3.0, "≥ 3× faster", "rows/s");
            row(rows, "Bronze ingest, rows/s (flights, " + s.days() + " days, " + rows3m + " rows): " + lake,
                    r.of(BronzeIngestBench.Side.SLUICE_LAKEHOUSE), r.of(BronzeIngestBench.Side.BASELINE_REWRITE), rewrite + " (PostgreSQL)",
                    Compare.REPORT, 0, "— (reported)", "rows/s");
        }
        if (s.runs("medallion") || s.runs("lakehouse")) {
            Map<String, Long> counts = null;
            Path dir = Files.createDirectories(work.resolve("duckdb"));
            Path runHome = BackfillBench.prepareHome(home, dir, s.from(), s.to());
            for (int i = 0; i <= s.repeats(); i++) {
                long t = System.nanoTime();
                counts = DuckDbMedallion.run(runHome.resolve("bulk-landing/flights"), home.resolve("landing/airports/airports.csv"),
                        dir.resolve("medallion.duckdb"));
                double sec = (System.nanoTime() - t) / 1e9;
                if (i == 0) {
                    details.put("duckdb_warm_up_s", sec);
                } else {
                    duck.add(sec);
                }
            }
            details.set("duckdb_rows", JSON.valueToTree(counts));
            details.set("duckdb_s", JSON.valueToTree(duck));
        }
        if (s.runs("backfill") || s.runs("medallion")) {
            if (s.processRepeats() > 0) {
                Path jar = root.resolve("app/target/sluice.jar");
                Map<String, List<BackfillBench.Sample>> p = BackfillBench.measure(root, jar, home, Files.createDirectories(work.resolve("process")),
                        s.from(), s.to(), s.processRepeats(), 2, 64, List.of("backfill", "bulk"));
                details.set("process", JSON.valueToTree(p));
                List<Double> bulk = p.get("bulk").stream().map(BackfillBench.Sample::wallS).toList();
                List<Double> backfill = p.get("backfill").stream().map(BackfillBench.Sample::wallS).toList();
                if (!duck.isEmpty()) {
                    row(rows, "full medallion of flights-3m, gates on, s (`sluice backfill` of the " + s.days()
                            + " days into an H2 file vs DuckDB into a file)", backfill,
                            duck, "DuckDB: the same three SQL steps on the same Parquet files",
                            Compare.AT_MOST, 4.0, "≤ 4× DuckDB's time", "s");
                }
                List<Double> backfillShare = p.get("backfill").stream().map(x -> 100 * x.gateS() / x.wallS()).toList();
                row(rows, "gates' share of the full load (the backfill above), % of its wall time", backfillShare, null, "—", Compare.AT_MOST, 20.0,
                        "≤ 20 %", "%");
                List<Double> gateShare = p.get("bulk").stream().map(x -> 100 * x.gateS() / x.wallS()).toList();
                row(rows, "gates' share of the one-partition run below, %", gateShare, null, "—", Compare.AT_MOST, 20.0, "≤ 20 %", "%");
                row(rows, "backfill of " + s.days() + " daily partitions, gates on, s", backfill, bulk,
                        "the same pipeline run once over the whole range as one partition, gates on", Compare.AT_MOST, 1.5, "≤ 1.5×", "s");
            } else {
                details.put("process", "skipped: whole-process measures do not run in the smoke run");
            }
        }
        if (s.runs("lakehouse")) {
            if (s.processRepeats() > 0) {
                Path jar = root.resolve("app/target/sluice.jar");
                Map<String, List<BackfillBench.Sample>> p = BackfillBench.measure(root, jar, home,
                        Files.createDirectories(work.resolve("lakehouse")), s.from(), s.to(), s.processRepeats(), 2, 64,
                        List.of("lake-backfill", "quickstart", "lake-quickstart"));
                details.set("lakehouse", JSON.valueToTree(p));
                List<Double> lake = p.get("lake-backfill").stream().map(BackfillBench.Sample::wallS).toList();
                row(rows, "full medallion of flights-3m on the lakehouse, gates on, s (`sluice backfill` of flights_lake's " + s.days()
                        + " days: Iceberg tables, catalog in an H2 file, vs DuckDB into a file)", lake, duck,
                        "DuckDB: the same three SQL steps on the same Parquet files", Compare.AT_MOST, 4.0, "≤ 4× DuckDB's time", "s");
                row(rows, "gates' share of the lakehouse load above, % of its wall time", p.get("lake-backfill").stream()
                        .map(x -> 100 * x.gateS() / x.wallS()).toList(), null, "—", Compare.AT_MOST, 10.0, "≤ 10 %", "%");
                List<Double> quick = p.get("quickstart").stream().map(BackfillBench.Sample::wallS).toList();
                List<Double> lakeQuick = p.get("lake-quickstart").stream().map(BackfillBench.Sample::wallS).toList();
                row(rows, "`sluice quickstart` from an empty home (sample data fetched, then every day in one backfill), warehouse engine, s", quick, null,
                        "—", Compare.REPORT, 0, "— (reported)", "s");
                row(rows, "`sluice quickstart --pipeline flights_lake` from an empty home, lakehouse engine, s", lakeQuick, quick,
                        "the warehouse engine's quickstart above", Compare.REPORT, 0, "— (reported)", "s");
            } else {
                details.put("lakehouse", "skipped: whole-process measures do not run in the smoke run");
            }
        }
        if (s.runs("growth")) {
            growth(root, home, work, s, rows, details);
        }
        if (s.runs("overhead")) {
            OverheadBench.Result r = OverheadBench.measure(Files.createDirectories(work.resolve("overhead")), s.overheadPartitions(), s.repeats(), 1);
            details.set("overhead", JSON.valueToTree(r));
            row(rows, "orchestration overhead, ms per partition (" + s.overheadPartitions() + " trivial partitions)", r.msPerPartition(), null,
                    "—", Compare.BELOW, 50.0, "< 50 ms/partition", "ms");
        }
        if (s.runs("hotpath")) {
            HotPathBench.Result r = HotPathBench.measure(root, Files.createDirectories(work.resolve("hotpath")), s.hotEvents(), s.hotRate(),
                    s.hotSeconds(), s.repeats());
            details.set("hotpath", JSON.valueToTree(r));
            row(rows, "hot path events/s into the sink (" + String.format(Locale.ROOT, "%,d", s.hotEvents()) + " events)",
                    r.sinkEventsPerSecond(), r.rawEventsPerSecond(), "raw consumer reading the same topic, doing nothing", Compare.AT_LEAST, 0.5, "≥ 50 %",
                    "events/s");
            row(rows, "hot path p99 latency at " + String.format(Locale.ROOT, "%,d", s.hotRate()) + " events/s, ms", r.latencyP99Ms(), null, "—",
                    Compare.BELOW, 500.0, "p99 < 500 ms", "ms");
        }
        if (s.runs("hotsink") && (!s.smoke() || s.only().contains("hotsink"))) {
            HotSinkBench.Result r = HotSinkBench.measure(root, home, Files.createDirectories(work.resolve("hotsink")),
                    s.smoke() ? HotSinkBench.Plan.smokeRun() : HotSinkBench.Plan.fullRun());
            details.set("hotsink", JSON.valueToTree(r));
            HotSinkRows.add(rows, r);
            HotSinkBench.writeRates(root, r);
        }
        if (s.runs("lineage")) {
            details.set("lineage", lineage(s));
            List<Double> p50 = List.of(details.get("lineage").get("p50_ms").asDouble());
            row(rows, "lineage downstream closure over " + String.format(Locale.ROOT, "%,d", s.lineageRuns()) + " runs, ms (JMH p50; p99 "
                    + String.format(Locale.ROOT, "%.1f", details.get("lineage").get("p99_ms").asDouble()) + ")", p50, null, "—", Compare.BELOW, 100.0,
                    "< 100 ms", "ms");
        }
        if (s.runs("lineage-scale")) {
            lineageScale(work, s, rows, details);
        }
        report.put("ended_at", OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.SECONDS).toString());
        return report;
    }

    /** {@link LineageScaleBench}: per backend, size and query a row with its p99 (goal below 100 ms) and p50. */
    private static void lineageScale(Path work, Settings s, ArrayNode rows, ObjectNode details) throws Exception {
        if (s.smoke()) {
            details.put("lineage_scale", "skipped: the smoke run writes no lineage store of a million runs");
            return;
        }
        List<Long> sizes = List.of(System.getProperty("sluice.bench.lineageSizes", "10000,100000,1000000").split(",")).stream()
                .map(String::trim).map(Long::parseLong).toList();
        List<String> backends = List.of(System.getProperty("sluice.bench.lineageBackends", "h2,postgresql").split(","));
        List<LineageScaleBench.Size> measured = LineageScaleBench.measure(Files.createDirectories(work.resolve("lineage-scale")), sizes, backends);
        details.set("lineage_scale", JSON.valueToTree(measured));
        for (LineageScaleBench.Size size : measured) {
            for (LineageScaleBench.Timing t : size.timings()) {
                row(rows, String.format(Locale.ROOT, "lineage at %,d runs (%s): %s, p99 of %d calls, ms (p50 %.2f)", t.runs(),
                        t.backend().equals("h2") ? "H2 file" : "PostgreSQL", t.query(), LineageScaleBench.CALLS, t.p50Ms()),
                        List.of(t.p99Ms()), null, "—", Compare.BELOW, 100.0, "p99 < 100 ms", "ms");
            }
        }
    }

    /** The JMH run of {@link LineageClosureJmh}: forked in the full run, in this JVM in the smoke run. */
    private static ObjectNode lineage(Settings s) throws Exception {
        Options o = new OptionsBuilder().include(LineageClosureJmh.class.getName() + ".downstreamClosure")
                .param("runs", Integer.toString(s.lineageRuns()))
                .forks(s.smoke() ? 0 : 1)
                .warmupIterations(s.smoke() ? 1 : 3).warmupTime(TimeValue.milliseconds(s.smoke() ? 200 : 2_000))
                .measurementIterations(s.smoke() ? 1 : 5).measurementTime(TimeValue.milliseconds(s.smoke() ? 500 : 3_000))
                .shouldFailOnError(true).build();
        Collection<RunResult> results = new Runner(o).run();
        RunResult r = results.iterator().next();
        var stats = r.getPrimaryResult().getStatistics();
        ObjectNode n = JSON.createObjectNode();
        n.put("tool", "JMH 1.37, sample-time mode").put("forks", s.smoke() ? 0 : 1).put("runs_in_store", s.lineageRuns())
                .put("samples", stats.getN()).put("p50_ms", stats.getPercentile(50)).put("p99_ms", stats.getPercentile(99))
                .put("mean_ms", stats.getMean()).put("max_ms", stats.getMax());
        // JMH keeps its warm-up iterations out of its result; the cold start is measured here apart
        LineageClosureJmh cold = new LineageClosureJmh();
        cold.runs = s.lineageRuns();
        cold.fill();
        try {
            long t = System.nanoTime();
            int found = cold.downstreamClosure();
            n.put("cold_first_call_ms", (System.nanoTime() - t) / 1e6).put("datasets_found", found);
        } finally {
            cold.close();
        }
        return n;
    }

    /**
     * Adds a table row. {@code ratio} is Sluice over the baseline, of the medians; the goal is met
     * when that ratio (without a baseline: Sluice's median) compares with {@code goal} as
     * {@code compare} says.
     */
    static void row(ArrayNode rows, String measure, List<Double> sluice, List<Double> baseline, String baselineWhat,
            Compare compare, double goal, String goalText, String unit) {
        ObjectNode r = rows.addObject();
        Spread sl = Spread.of(sluice);
        r.put("measure", measure).put("unit", unit).put("sluice_median", sl.median()).put("sluice_min", sl.min()).put("sluice_max", sl.max());
        r.set("sluice_repeats", JSON.valueToTree(sluice));
        r.put("baseline", baselineWhat).put("goal", goalText);
        double figure = sl.median();
        if (baseline != null) {
            Spread b = Spread.of(baseline);
            figure = sl.median() / b.median();
            r.put("baseline_median", b.median()).put("baseline_min", b.min()).put("baseline_max", b.max()).put("ratio", figure);
            r.set("baseline_repeats", JSON.valueToTree(baseline));
        }
        boolean met = compare.met(figure, goal);
        r.put("met", met);
    }

    /** Writes {@code benchmarks.json} and {@code benchmarks.md} into {@code out}. */
    static void write(ObjectNode report, Path out) throws IOException {
        write(report, out, "benchmarks");
    }

    /** Writes {@code <stem>.json} and {@code <stem>.md} into {@code out}. */
    static void write(ObjectNode report, Path out, String stem) throws IOException {
        Files.createDirectories(out);
        Files.writeString(out.resolve(stem + ".json"), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(report) + "\n");
        Files.writeString(out.resolve(stem + ".md"), BenchReport.markdown(report));
    }
}
