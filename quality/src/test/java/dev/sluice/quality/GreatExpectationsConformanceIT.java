package dev.sluice.quality;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.config.CheckSpec;
import dev.sluice.config.Expectation;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Partition;
import dev.sluice.quality.internal.deequ.DeequGate;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Great Expectations' own test definitions run through Sluice's Deequ gate, judged the way GE's
 * runner judges them ({@link GeJudge}): the shared fixtures ({@code ../shared/fixtures/ge/}, see
 * its README), the upstream files kept with this test ({@code src/test/resources/ge-upstream/}, see
 * its README) and any directory named by {@code -Dsluice.ge.extra=<dir>}; every file of each, also
 * one that has another's name (a file is named by its source and path). Each dataset is loaded
 * into the warehouse (H2, then PostgreSQL) with its row position as the row id, and every case is
 * one dynamic test: passed; failed; a named known difference ({@link GeKnownDifferences}, reported
 * as aborted with its reason); or skipped with its reason (aborted). The last test prints the
 * counts (judged, passed, failed, known differences, skipped by reason), logs them, and requires no
 * failure and no stale known difference.
 */
class GreatExpectationsConformanceIT {

    private static final Logger LOG = LoggerFactory.getLogger(GreatExpectationsConformanceIT.class);
    private static final DeequGate GATE = new DeequGate("local[2]");
    private static EmbeddedPostgres postgres;

    static Optional<Path> fixtures() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path f = d.resolve("shared/fixtures/ge");
            if (Files.isDirectory(f)) {
                return Optional.of(f);
            }
            f = d.resolve("../shared/fixtures/ge").normalize();
            if (Files.isDirectory(f) && Files.isRegularFile(d.resolve("pom.xml"))) {
                return Optional.of(f);
            }
        }
        return Optional.empty();
    }

    @AfterAll
    static void stopPostgres() throws Exception {
        if (postgres != null) {
            postgres.close();
        }
    }

    @TestFactory
    Stream<DynamicTest> onH2() throws Exception {
        return suite("h2", "jdbc:h2:mem:ge-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa", "");
    }

    @TestFactory
    Stream<DynamicTest> onPostgres() throws Exception {
        postgres = EmbeddedPostgres.builder().start();
        return suite("postgresql", postgres.getJdbcUrl("postgres", "postgres"), "postgres", "postgres");
    }

    /** The definition files by name ({@code <source>/<path>}), every one of every source. */
    private static Map<String, Path> files() throws Exception {
        Map<String, Path> files = new LinkedHashMap<>();
        Optional<Path> shared = fixtures();
        if (shared.isEmpty()) {
            System.err.println("GE CONFORMANCE: ../shared/fixtures/ge is absent; the shared fixtures are not judged");
            LOG.warn("GE CONFORMANCE: ../shared/fixtures/ge is absent; the shared fixtures are not judged");
        } else {
            add(files, "shared", shared.get());
        }
        add(files, "upstream", upstream());
        String extra = System.getProperty("sluice.ge.extra", "");
        if (!extra.isBlank()) {
            Path more = Path.of(extra);
            if (!Files.isDirectory(more)) {
                throw new IllegalArgumentException("-Dsluice.ge.extra=" + extra + ": not a directory");
            }
            add(files, "extra", more);
        }
        return files;
    }

    static Path upstream() throws URISyntaxException {
        return Path.of(GreatExpectationsConformanceIT.class.getResource("/ge-upstream").toURI());
    }

    private static void add(Map<String, Path> files, String source, Path dir) throws Exception {
        try (Stream<Path> s = Files.walk(dir)) {
            s.filter(p -> p.toString().endsWith(".json")).sorted().forEach(p -> files.put(source + "/" + dir.relativize(p), p));
        }
    }

    private Stream<DynamicTest> suite(String backend, String url, String user, String password) throws Exception {
        Map<String, Path> files = files();
        Assumptions.assumeFalse(files.isEmpty(), "no GE definition file found");
        Tally tally = new Tally(backend);
        List<DynamicTest> tests = new ArrayList<>();
        Connection db = DriverManager.getConnection(url, user, password);
        try (Statement st = db.createStatement()) {
            st.execute("CREATE SCHEMA IF NOT EXISTS ge");
        }
        int n = 0;
        for (Map.Entry<String, Path> file : files.entrySet()) {
            JsonNode root;
            try {
                root = GeCase.JSON.readTree(file.getValue().toFile());
            } catch (com.fasterxml.jackson.core.JacksonException e) {
                String name = backend + " " + file.getKey();
                tally.add(name, GeVerdict.failed("unreadable JSON: " + e.getOriginalMessage()));
                tests.add(DynamicTest.dynamicTest(name, () -> {
                    throw new AssertionFailedError(name + ": unreadable JSON: " + e.getOriginalMessage());
                }));
                continue;
            }
            String expectationType = root.path("expectation_type").asText();
            Optional<Expectation> expectation = Expectation.parse(expectationType);
            for (JsonNode dataset : root.path("datasets")) {
                String table = "ge.t" + (++n);
                boolean loaded = false;
                for (JsonNode test : dataset.path("tests")) {
                    String caseId = expectationType + ": " + test.path("title").asText();
                    String name = backend + " " + file.getKey() + ": " + test.path("title").asText();
                    Optional<GeVerdict> skip = GeCase.skip(root, dataset, test, expectation);
                    if (skip.isPresent()) {
                        tally.add(name, skip.get());
                        tests.add(DynamicTest.dynamicTest(name, () -> report(skip.get())));
                        continue;
                    }
                    if (!loaded) {
                        GeCase.load(db, table, dataset);
                        loaded = true;
                    }
                    String query = "SELECT * FROM " + table;
                    Map<String, String> columns = GeCase.columns(dataset);
                    tests.add(DynamicTest.dynamicTest(name, () -> {
                        GeVerdict v = known(caseId, GeJudge.judge(test, expectation.get(),
                                run(url, user, password, query, expectation.get(), test, columns)));
                        tally.add(name, v);
                        report(v);
                    }));
                }
            }
        }
        tests.add(DynamicTest.dynamicTest(backend + " every case judged or skipped with its reason", () -> {
            db.close();
            String summary = tally.summary();
            System.out.println(summary);
            LOG.info("{}", summary);
            assertThat(tally.failed).as("cases that disagree with GE (see the summary)").isEmpty();
            assertThat(tally.judged()).as("judged cases").isPositive();
            List<String> unmet = GeKnownDifferences.cases().stream().filter(c -> !tally.knownMet.contains(c)).toList();
            assertThat(unmet).as("known differences no case met (stale entries)").isEmpty();
        }));
        return tests.stream();
    }

    private static GeJudge.Run run(String url, String user, String password, String query, Expectation e, JsonNode test,
            Map<String, String> columns) {
        PartitionSource source = new PartitionSource.JdbcQuery(url, user, password, query, "_row_id", null);
        try {
            CheckSpec spec = GeCase.spec(e, test.path("in"), columns);
            return GeJudge.Run.of(GATE.evaluate(DatasetRef.parse("ge.t"), Partition.NONE, Boundary.SOURCE, source, List.of(spec),
                    MetricHistory.NONE).checks().get(0));
        } catch (RuntimeException x) {
            return GeJudge.Run.threw(x);
        }
    }

    /**
     * A listed known difference that still differs is reported as one; one that no longer differs
     * fails, and so does a crash of the gate (a listed difference is an answer or refusal, never that).
     */
    private static GeVerdict known(String caseId, GeVerdict v) {
        Optional<String> reason = GeKnownDifferences.reason(caseId);
        if (reason.isEmpty()) {
            return v;
        }
        if (v.category().equals(GeVerdict.CRASHED)) {
            return v;
        }
        return switch (v.kind()) {
            case FAILED -> new GeVerdict(GeVerdict.Kind.KNOWN_DIFFERENCE, caseId, reason.get() + " [" + v.detail() + "]");
            case PASSED -> GeVerdict.failed("listed as a known difference but agrees with GE now: remove it from GeKnownDifferences");
            default -> v;
        };
    }

    private static void report(GeVerdict v) {
        switch (v.kind()) {
            case PASSED -> { }
            case FAILED -> throw new AssertionFailedError(v.detail());
            case KNOWN_DIFFERENCE -> throw new TestAbortedException("known difference: " + v.detail());
            case SKIPPED -> throw new TestAbortedException("skipped: " + v.category() + ": " + v.detail());
        }
    }

    /** The verdicts of one backend's cases (dynamic tests run one after another). */
    private static final class Tally {
        final String backend;
        final List<String> passed = new ArrayList<>();
        final List<String> failed = new ArrayList<>();
        final List<String> known = new ArrayList<>();
        final List<String> knownMet = new ArrayList<>();
        final Map<String, List<String>> skipped = new TreeMap<>();

        Tally(String backend) {
            this.backend = backend;
        }

        synchronized void add(String name, GeVerdict v) {
            switch (v.kind()) {
                case PASSED -> passed.add(name);
                case FAILED -> failed.add(name + " — " + v.detail());
                case KNOWN_DIFFERENCE -> {
                    known.add(name + " — " + v.detail());
                    knownMet.add(v.category());
                }
                case SKIPPED -> skipped.computeIfAbsent(v.category(), k -> new ArrayList<>()).add(name + " — " + v.detail());
            }
        }

        int judged() {
            return passed.size() + failed.size() + known.size();
        }

        String summary() {
            int skips = skipped.values().stream().mapToInt(List::size).sum();
            StringBuilder b = new StringBuilder(String.format(
                    "GE CONFORMANCE %s: %d cases: %d judged (%d passed, %d failed, %d known differences), %d skipped%n",
                    backend, judged() + skips, judged(), passed.size(), failed.size(), known.size(), skips));
            skipped.forEach((reason, cases) -> b.append(String.format("  skipped %d: %s%n", cases.size(), reason)));
            known.forEach(k -> b.append("  known difference: ").append(k).append('\n'));
            failed.forEach(f -> b.append("  FAILED: ").append(f).append('\n'));
            skipped.forEach((reason, cases) -> cases.forEach(c -> b.append("  skipped (").append(reason).append("): ").append(c).append('\n')));
            return b.toString();
        }
    }
}
