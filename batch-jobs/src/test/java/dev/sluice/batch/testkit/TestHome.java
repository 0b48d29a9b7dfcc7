package dev.sluice.batch.testkit;

import dev.sluice.sampledata.SampleDataInstaller;
import dev.sluice.sampledata.SampleDataSpec;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.config.SluiceEnvironment;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * Fixtures as code for integration tests: the project root, a shared Sluice home under
 * {@code target/it-home} with the real sample data laid out once (idempotent, so every module's
 * tests share it), and the flights spec loaded against a warehouse URL of the test's choosing.
 */
public final class TestHome {

    private static Path home;

    private TestHome() {
    }

    /** The project root: {@code -Dsluice.projectRoot}, else the nearest folder up with pipelines/flights.yaml. */
    public static Path projectRoot() {
        String p = System.getProperty("sluice.projectRoot");
        if (p != null && Files.isRegularFile(Path.of(p, "pipelines", "flights.yaml"))) {
            return Path.of(p).toAbsolutePath();
        }
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("pipelines/flights.yaml"))) {
                return d;
            }
        }
        throw new IllegalStateException("cannot find the project root (pipelines/flights.yaml)");
    }

    /** The shared test home with the sample data laid out (fetched with npm on first use). */
    public static synchronized Path withSampleData() {
        if (home == null) {
            Path h = projectRoot().resolve("target/it-home");
            new SampleDataInstaller(SampleDataSpec.pinned(System.getenv()), h, line -> { }).install();
            home = h;
        }
        return home;
    }

    /** The original flights-3m.parquet of the sample package. */
    public static Path originalFlights() {
        return SampleDataInstaller.rawFolder(withSampleData(), SampleDataSpec.pinned(System.getenv()))
                .resolve("flights-3m.parquet");
    }

    /** The original airports.csv of the sample package. */
    public static Path originalAirports() {
        return originalFlights().resolveSibling("airports.csv");
    }

    /**
     * A new, empty H2 file warehouse URL under {@code target/it-warehouses}. The warehouse is removed
     * when the test (or, made in {@code @BeforeAll}, the class) that asked for it passes, and kept
     * when it fails ({@link TestWarehouses}).
     */
    public static String freshH2Url() {
        Path dir = projectRoot().resolve("target/it-warehouses");
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Path base = dir.resolve("wh-" + UUID.randomUUID()).toAbsolutePath();
        TestWarehouses.made(base);
        return "jdbc:h2:file:" + base + ";AUTO_SERVER=TRUE";
    }

    /** The environment a test runs the flights spec in: the given home and warehouse. */
    public static SluiceEnvironment environment(Path sluiceHome, String url, String user, String password) {
        Map<String, String> env = new HashMap<>();
        env.put("SLUICE_HOME", sluiceHome.toString());
        env.put("SLUICE_WAREHOUSE_URL", url);
        env.put("SLUICE_WAREHOUSE_USER", user);
        env.put("SLUICE_WAREHOUSE_PASSWORD", password);
        return new SluiceEnvironment(env);
    }

    /**
     * Replaces {@code from} with {@code to} in the spec file {@code spec} (a test's copy).
     *
     * @return the file's text before the change, for the test to restore
     * @throws IllegalStateException when the text does not hold {@code from}: the test would change nothing
     */
    public static String editSpec(Path spec, String from, String to) {
        try {
            String original = Files.readString(spec);
            if (!original.contains(from)) {
                throw new IllegalStateException(spec + " does not hold " + from);
            }
            Files.writeString(spec, original.replace(from, to));
            return original;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code s} under another pipeline name, every table and setting the same. */
    public static PipelineSpec renamed(PipelineSpec s, String name) {
        return new PipelineSpec(s.file(), name, s.description(), s.warehouse(), s.batchRows(),
                s.maxLineBytes(), s.keepVersions(), s.sources(), s.tables(), s.sparkMaster(), s.lineage(), s.piiKeys(), s.partitionKind(),
                s.schedule(), s.tier(), s.datasets(), s.alertWebhook(), s.backfillWindow(), s.execution(), s.hotPath(), s.requirements(),
                s.hash(), s.engine());
    }

    /**
     * Copies the project's flights spec and its contracts into {@code dir}, so that a test can
     * change the copy (a broken SQL, a new Gold rule) without touching the project.
     *
     * @return the copied spec file
     */
    public static Path copyFlightsSpec(Path dir) {
        Path project = projectRoot().resolve("pipelines");
        try {
            Files.createDirectories(dir.resolve("contracts"));
            for (String c : new String[] {"contracts/flights.v1.yaml", "contracts/airports.v1.yaml"}) {
                Files.copy(project.resolve(c), dir.resolve(c));
            }
            return Files.copy(project.resolve("flights.yaml"), dir.resolve("flights.yaml"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Writes a small pipeline for a test under {@code home/spec}: {@code <name>.yaml} and its
     * contract {@code contracts/<name>.v1.yaml}.
     *
     * @return the spec file
     */
    public static Path writePipeline(Path home, String name, String contractYaml, String specYaml) {
        try {
            Path dir = Files.createDirectories(home.resolve("spec/contracts")).getParent();
            Files.writeString(dir.resolve("contracts/" + name + ".v1.yaml"), contractYaml);
            return Files.writeString(dir.resolve(name + ".yaml"), specYaml);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Loads {@code specFile} with {@code SLUICE_HOME} = {@code home} and a new, empty H2 warehouse. */
    public static PipelineSpec load(Path home, Path specFile) {
        return new PipelineSpecLoader(environment(home, freshH2Url(), "sa", "").interpolator()).load(specFile);
    }

    /** The project's flights spec, on the sample-data home and the given warehouse. */
    public static PipelineSpec flightsSpec(String url, String user, String password) {
        SluiceEnvironment env = environment(withSampleData(), url, user, password);
        return new PipelineSpecLoader(env.interpolator()).load(projectRoot().resolve("pipelines/flights.yaml"));
    }

    /**
     * A spec of the project's {@code pipelines/} (e.g. {@code la_riots}) on the sample-data home,
     * the given warehouse and extra environment (e.g. a PII key).
     */
    public static PipelineSpec projectSpec(String pipeline, String url, String user, String password, Map<String, String> extra) {
        return projectSpec(pipeline, withSampleData(), url, user, password, extra);
    }

    /** A spec of the project's {@code pipelines/} on {@code home} (its own landing files), the warehouse and extra environment. */
    public static PipelineSpec projectSpec(String pipeline, Path home, String url, String user, String password,
            Map<String, String> extra) {
        Map<String, String> env = new HashMap<>(environment(home, url, user, password).variables());
        env.putAll(extra);
        return new PipelineSpecLoader(new SluiceEnvironment(env).interpolator())
                .load(projectRoot().resolve("pipelines/" + pipeline + ".yaml"));
    }
}
