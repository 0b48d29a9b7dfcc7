package dev.sluice.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A backfill of the flights partitions against the same pipeline run once over the whole range as
 * one partition (issue: "Scheduled loads under Quartz, backfill…": backfill ≤ 1.5 × bulk, gates
 * on; per-partition overhead &lt; 50 ms), and the share of each spent in the quality gates (≤ 20 %).
 *
 * <p>Every measure is a whole {@code sluice} process on a fresh H2 warehouse, timed from start to
 * exit (JVM and Spark start included, alike for both). The bulk pipeline is the project's
 * {@code flights.yaml} with the flights source read as one snapshot of the very same landed files
 * (symbolic links to each day's file in one directory) and Silver/Gold unpartitioned; the
 * no-gates variants are the same specs without their {@code checks:}. Repeats report the median
 * and the spread (min–max).
 *
 * <p>Run: {@code mvn -q -pl bench org.codehaus.mojo:exec-maven-plugin:3.5.0:java
 * -Dexec.mainClass=dev.sluice.bench.BackfillBench -Dexec.args="HOME FROM TO [REPEATS] [PARALLELISM] [GATE_BATCH]"}
 * where {@code HOME} is a Sluice home with the sample landing data ({@code sluice sample-data}).
 * Writes {@code bench/target/backfill-bench.json}.
 */
public final class BackfillBench {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Pattern BACKFILL_GATES = Pattern.compile("quality gates ([0-9.]+) s in (\\d+) one-pass");
    private static final Pattern GATE_STEP = Pattern.compile("^\\s+gate\\.\\S+\\s+\\S+\\s+([0-9.]+) s", Pattern.MULTILINE);

    private BackfillBench() {
    }

    /**
     * One process: wall and gate seconds, exit code, peak resident memory (VmHWM, MiB; 0 where
     * /proc has none), and the totals line of its run report (rows read, Bronze, Silver,
     * duplicates collapsed, quarantined, Gold; empty when it printed none).
     */
    record Sample(double wallS, double gateS, int exit, double peakRssMib, List<Long> totals) {
        Sample {
            totals = List.copyOf(totals);
        }
    }

    /** The totals line of a range run's report ({@code RunReport}): read, bronze, silver, dups, quarantined, gold. */
    private static final Pattern TOTALS = Pattern.compile(
            "^total\\s+([\\d,]+)\\s+([\\d,]+)\\s+([\\d,]+)\\s+([\\d,]+)\\s+([\\d,]+)\\s+([\\d,]+)\\s", Pattern.MULTILINE);

    /** The totals of a run report's text, or an empty list when it has no totals line. */
    static List<Long> totals(String report) {
        Matcher m = TOTALS.matcher(report);
        List<Long> totals = new ArrayList<>();
        if (m.find()) {
            for (int g = 1; g <= 6; g++) {
                totals.add(Long.parseLong(m.group(g).replace(",", "")));
            }
        }
        return totals;
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 3) {
            System.err.println("usage: BackfillBench HOME FROM TO [REPEATS] [PARALLELISM] [GATE_BATCH]");
            System.exit(2);
        }
        Path home = Path.of(args[0]).toAbsolutePath();
        LocalDate from = LocalDate.parse(args[1]);
        LocalDate to = LocalDate.parse(args[2]);
        int repeats = args.length > 3 ? Integer.parseInt(args[3]) : 1;
        int parallelism = args.length > 4 ? Integer.parseInt(args[4]) : 2;
        int gateBatch = args.length > 5 ? Integer.parseInt(args[5]) : 64;
        Path root = projectRoot();
        // a copy of the jar (-Dsluice.jar) lets the project be rebuilt while a long measurement runs
        Path jar = Path.of(System.getProperty("sluice.jar", root.resolve("app/target/sluice.jar").toString()));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is not built: mvn -q -DskipTests package");
        }
        Path work = Files.createTempDirectory("sluice-backfill-bench");
        Map<String, List<Sample>> samples = measure(root, jar, home, work, from, to, repeats, parallelism, gateBatch,
                List.of("backfill", "bulk", "backfill-no-gates", "bulk-no-gates"));
        int days = (int) (to.toEpochDay() - from.toEpochDay() + 1);
        ObjectNode out = JSON.createObjectNode();
        out.set("machine", machine());
        out.put("partitions", days).put("from", from.toString()).put("to", to.toString()).put("repeats", repeats)
                .put("parallelism", parallelism).put("gate_batch", gateBatch);
        ObjectNode results = out.putObject("results");
        samples.forEach((k, v) -> {
            ObjectNode n = results.putObject(k);
            n.put("median_s", median(v, Sample::wallS)).put("min_s", min(v, Sample::wallS)).put("max_s", max(v, Sample::wallS))
                    .put("gates_median_s", median(v, Sample::gateS));
            ArrayNode all = n.putArray("runs");
            v.forEach(s -> all.addObject().put("wall_s", s.wallS()).put("gates_s", s.gateS()).put("exit", s.exit()));
        });
        double backfill = median(samples.get("backfill"), Sample::wallS);
        double bulk = median(samples.get("bulk"), Sample::wallS);
        double backfillNoGates = median(samples.get("backfill-no-gates"), Sample::wallS);
        double bulkNoGates = median(samples.get("bulk-no-gates"), Sample::wallS);
        ObjectNode derived = out.putObject("derived");
        derived.put("backfill_over_bulk", backfill / bulk)
                .put("per_partition_overhead_ms", (backfill - bulk) * 1000 / days)
                .put("backfill_gate_share_reported", median(samples.get("backfill"), Sample::gateS) / backfill)
                .put("backfill_gate_share_by_difference", (backfill - backfillNoGates) / backfill)
                .put("bulk_gate_share_by_difference", (bulk - bulkNoGates) / bulk);
        Path target = root.resolve("bench/target");
        Files.createDirectories(target);
        Files.writeString(target.resolve("backfill-bench.json"), JSON.writerWithDefaultPrettyPrinter().writeValueAsString(out));
        System.out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(derived));
        System.out.printf(Locale.ROOT, "| backfill of %d partitions, gates on | %.1f s | bulk %.1f s | %.2f× | ≤ 1.5× |%n",
                days, backfill, bulk, backfill / bulk);
        System.out.printf(Locale.ROOT, "| per-partition overhead | %.0f ms | | | < 50 ms |%n", (backfill - bulk) * 1000 / days);
        System.out.printf(Locale.ROOT, "| gates' share of the backfill | %.1f %% (reported) / %.1f %% (vs no gates) | | | ≤ 20 %% |%n",
                100 * median(samples.get("backfill"), Sample::gateS) / backfill, 100 * (backfill - backfillNoGates) / backfill);
    }


    /**
     * Times each of {@code variants} as a whole {@code sluice} process, {@code repeats} times, each
     * on a fresh H2 file warehouse: "backfill", "bulk", "backfill-no-gates", "bulk-no-gates" (the
     * warehouse engine), "lake-backfill" (the same backfill of {@code flights_lake.yaml} on the
     * lakehouse engine, its Iceberg tables under the warehouse's directory), "quickstart" and
     * "lake-quickstart" ({@code sluice quickstart} of either pipeline from an empty home: the
     * sample data fetched and split, then every landed day in a backfill, parallelism 2, waves of 64).
     */
    static Map<String, List<Sample>> measure(Path root, Path jar, Path home, Path work, LocalDate from, LocalDate to, int repeats,
            int parallelism, int gateBatch, List<String> variants) throws Exception {
        return measure(root, jar, home, work, from, to, repeats, parallelism, gateBatch, variants, processTimeoutMinutes());
    }

    /** How long one whole process may run before it is stopped, minutes ({@code -Dsluice.bench.processTimeoutMinutes}, default 60). */
    static long processTimeoutMinutes() {
        return Long.getLong("sluice.bench.processTimeoutMinutes", 60);
    }

    /** {@link #measure} with each process stopped after {@code timeoutMinutes} (a larger data set's). */
    static Map<String, List<Sample>> measure(Path root, Path jar, Path home, Path work, LocalDate from, LocalDate to, int repeats,
            int parallelism, int gateBatch, List<String> variants, long timeoutMinutes) throws Exception {
        Path runHome = prepareHome(home, work, from, to);
        Path specs = prepareSpecs(root.resolve("pipelines"), work.resolve("spec"));
        Map<String, List<Sample>> samples = new LinkedHashMap<>();
        for (int r = 0; r < repeats; r++) {
            for (String variant : variants) {
                boolean lake = variant.startsWith("lake-");
                String kind = lake ? variant.substring("lake-".length()) : variant;
                boolean backfill = kind.startsWith("backfill");
                String pipeline = lake ? "flights_lake" : "flights";
                String spec = specs.resolve((backfill || kind.equals("quickstart") ? pipeline : pipeline + "_bulk")
                        + (kind.endsWith("no-gates") ? "_nogates" : "") + ".yaml").toString();
                List<String> cmd = backfill
                        ? List.of("backfill", spec, "--from", from.toString(), "--to", to.toString(), "--parallelism",
                                Integer.toString(parallelism), "--gate-batch", Integer.toString(gateBatch))
                        : kind.equals("quickstart") ? List.of("quickstart", "--pipeline", spec)
                        : List.of("run", spec, "--partition", to.toString());
                Path warehouse = work.resolve("wh-" + variant + "-" + r);
                // the quickstart starts from an empty home of its own: it fetches the sample data itself
                Path processHome = kind.equals("quickstart") ? Files.createDirectories(warehouse.resolve("home")) : runHome;
                // the quickstart runs the landed days as a backfill: its gates' time is on the backfill's summary line
                Sample s = run(jar, processHome, warehouse, cmd, backfill || kind.equals("quickstart"), lake, timeoutMinutes);
                System.out.printf(Locale.ROOT, "%-18s run %d: %8.1f s wall, gates %6.1f s, exit %d%n", variant, r + 1, s.wallS(), s.gateS(), s.exit());
                samples.computeIfAbsent(variant, k -> new ArrayList<>()).add(s);
            }
        }
        return samples;
    }

    /** A home whose landing zone is the given one, plus the bulk landing: each day's flights file linked into one directory. */
    static Path prepareHome(Path home, Path work, LocalDate from, LocalDate to) throws IOException {
        Path runHome = Files.createDirectories(work.resolve("home"));
        Files.createSymbolicLink(runHome.resolve("landing"), home.resolve("landing"));
        Path bulk = Files.createDirectories(runHome.resolve("bulk-landing/flights"));
        for (LocalDate d = from; !d.isAfter(to); d = d.plusDays(1)) {
            Path dir = home.resolve("landing/flights/dt=" + d);
            try (var files = Files.list(dir)) {
                for (Path f : files.filter(Files::isRegularFile).toList()) {
                    Files.createSymbolicLink(bulk.resolve(d + "-" + f.getFileName()), f);
                }
            }
        }
        return runHome;
    }

    /**
     * flights.yaml, its bulk form (one snapshot of the range), and both without checks; the same
     * four of flights_lake.yaml (the lakehouse engine): {@code flights_lake}, {@code flights_lake_bulk},
     * {@code flights_lake_nogates}, {@code flights_lake_bulk_nogates}.
     */
    static Path prepareSpecs(Path pipelines, Path dir) throws IOException {
        Files.createDirectories(dir.resolve("contracts"));
        try (var contracts = Files.list(pipelines.resolve("contracts"))) {
            for (Path c : contracts.toList()) {
                Files.copy(c, dir.resolve("contracts").resolve(c.getFileName()));
            }
        }
        for (String name : List.of("flights", "flights_lake")) {
            String daily = Files.readString(pipelines.resolve(name + ".yaml"));
            String bulk = bulk(daily, name);
            Files.writeString(dir.resolve(name + ".yaml"), daily);
            Files.writeString(dir.resolve(name + "_bulk.yaml"), bulk);
            Files.writeString(dir.resolve(name + "_nogates.yaml"), withoutChecks(daily, name + "_nogates"));
            Files.writeString(dir.resolve(name + "_bulk_nogates.yaml"), withoutChecks(bulk, name + "_bulk_nogates"));
        }
        return dir;
    }

    /** The expectations a bulk form drops: they judge values against a partition's dates, which one snapshot of the range has not. */
    private static final java.util.Set<String> PARTITION_CHECKS = java.util.Set.of("expect_column_values_to_be_in_partition",
            "expect_partition_to_be_fresh");

    /**
     * The bulk form of pipeline {@code name}: its flights source one snapshot of the bulk landing, every
     * table unpartitioned, without a hot path and without the checks of values against the partition's dates.
     */
    private static String bulk(String daily, String name) throws IOException {
        String bulk = daily.replace("pipeline: " + name + "\n", "pipeline: " + name + "_bulk\n")
                .replace("path: ${SLUICE_HOME}/landing/flights/dt={partition}",
                        "path: ${SLUICE_HOME}/bulk-landing/flights\n    partitioned: false")
                .replace("partition: daily", "partition: none")
                .replace("partition: monthly", "partition: none");
        if (bulk.contains("partition: daily") || bulk.contains("partition: monthly") || !bulk.contains("bulk-landing")
                || !bulk.contains("pipeline: " + name + "_bulk")) {
            throw new IllegalStateException(name + ".yaml changed shape: the bulk form cannot be derived");
        }
        // one partition has no day to reconcile live windows with: the bulk form has no hot path
        JsonNode bulkTree = YAML.readTree(bulk);
        ((ObjectNode) bulkTree).remove("hot_path");
        // nor dates to hold its rows to: a check of values against the partition's dates has no meaning
        // there (validation refuses it on a snapshot; the measure once failed at gate.silver.flights on it)
        for (Iterator<JsonNode> layers = bulkTree.path("layers").elements(); layers.hasNext();) {
            for (JsonNode table : layers.next()) {
                for (Iterator<JsonNode> checks = table.path("checks").elements(); checks.hasNext();) {
                    if (PARTITION_CHECKS.contains(checks.next().path("expect").asText())) {
                        checks.remove();
                    }
                }
            }
        }
        return YAML.writeValueAsString(bulkTree);
    }

    private static String withoutChecks(String yaml, String name) throws IOException {
        JsonNode root = YAML.readTree(yaml);
        ((ObjectNode) root).put("pipeline", name);
        for (Iterator<JsonNode> layers = root.path("layers").elements(); layers.hasNext();) {
            for (JsonNode table : layers.next()) {
                ((ObjectNode) table).remove("checks");
                for (JsonNode rule : table.path("quarantine")) {
                    ((ObjectNode) rule).remove("max_share");
                }
            }
        }
        ArrayNode exempt = ((ObjectNode) root).putArray("design_exemptions");
        for (String rule : List.of("gates.source", "gates.transform", "gates.sink")) {
            exempt.addObject().put("rule", rule).put("reason", "the benchmark measures the load without its gates");
        }
        return YAML.writeValueAsString(root);
    }

    private static Sample run(Path jar, Path home, Path warehouse, List<String> args, boolean backfill, boolean lake, long timeoutMinutes)
            throws Exception {
        List<String> cmd = new ArrayList<>(List.of("java", "-Djdk.reflect.useDirectMethodHandle=false", "-Xmx6g", "-jar", jar.toString()));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(false);
        pb.environment().put("SLUICE_HOME", home.toString());
        pb.environment().put("SLUICE_WAREHOUSE_URL", "jdbc:h2:file:" + warehouse.resolve("warehouse"));
        if (lake) {
            pb.environment().put("SLUICE_LAKEHOUSE", warehouse.resolve("lakehouse").toString());
        }
        Files.createDirectories(warehouse);
        pb.redirectError(warehouse.resolve("stderr.txt").toFile());
        pb.redirectOutput(warehouse.resolve("stdout.txt").toFile());
        long start = System.nanoTime();
        Process p = pb.start();
        PeakRss rss = PeakRss.watch(p);
        if (!p.waitFor(timeoutMinutes, TimeUnit.MINUTES)) {
            // a hung process (session 6 saw one): keep its threads for the report, then stop it
            new ProcessBuilder("jcmd", Long.toString(p.pid()), "Thread.print")
                    .redirectOutput(warehouse.resolve("threads.txt").toFile()).redirectErrorStream(true).start().waitFor();
            p.destroyForcibly().waitFor();
            throw new IllegalStateException("sluice " + String.join(" ", args) + " did not end within " + timeoutMinutes
                    + " min; its threads and output are in " + warehouse);
        }
        int exit = p.exitValue();
        double wall = (System.nanoTime() - start) / 1e9;
        String out = Files.readString(warehouse.resolve("stdout.txt"));
        double gates = 0;
        if (backfill) {
            Matcher m = BACKFILL_GATES.matcher(out);
            if (m.find()) {
                gates = Double.parseDouble(m.group(1));
            }
        } else {
            Matcher m = GATE_STEP.matcher(out);
            while (m.find()) {
                gates += Double.parseDouble(m.group(1));
            }
        }
        if (exit != 0) {
            throw new IllegalStateException("sluice " + String.join(" ", args) + " exited " + exit + "; its output is in " + warehouse);
        }
        return new Sample(wall, gates, exit, rss.stop(), totals(out));
    }

    static ObjectNode machine() {
        ObjectNode m = JSON.createObjectNode();
        m.put("cores", Runtime.getRuntime().availableProcessors());
        m.put("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.arch"));
        try {
            String mem = Files.readAllLines(Path.of("/proc/meminfo")).get(0);
            m.put("memory", mem.replaceAll("\\s+", " "));
        } catch (IOException | IndexOutOfBoundsException e) {
            m.put("memory", "unknown");
        }
        return m;
    }

    private static Path projectRoot() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isRegularFile(p.resolve("pipelines/flights.yaml"))) {
            p = p.getParent();
        }
        if (p == null) {
            throw new IllegalStateException("run from inside the Sluice project");
        }
        return p;
    }

    private static Spread spread(List<Sample> v, ToDoubleFunction<Sample> f) {
        return Spread.of(v.stream().map(f::applyAsDouble).toList());
    }

    private static double median(List<Sample> v, ToDoubleFunction<Sample> f) {
        return spread(v, f).median();
    }

    private static double min(List<Sample> v, ToDoubleFunction<Sample> f) {
        return spread(v, f).min();
    }

    private static double max(List<Sample> v, ToDoubleFunction<Sample> f) {
        return spread(v, f).max();
    }
}
