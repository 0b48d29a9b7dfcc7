package dev.sluice.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.testkit.TestHome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Each of Sluice's own {@code sluice.*} tables (those its Flyway migrations create, lower-case;
 * Spring Batch's and Quartz's standard tables belong to those frameworks) has one owner, the class
 * that alone names it; every other class goes through that owner. ArchUnit cannot see a table
 * named in a string, so this test reads the main sources of every module: code and string
 * literals, not comments, for {@code sluice.<table>} and {@code DSL.name("sluice", "<table>")}.
 */
class MetadataTableOwnersTest {

    /** Table → the one main source file (relative to the project root) that may name it. */
    static final Map<String, String> OWNERS = new TreeMap<>(Map.ofEntries(
            Map.entry("run", "control/src/main/java/dev/sluice/control/run/RunRepository.java"),
            Map.entry("backfill", "control/src/main/java/dev/sluice/control/backfill/BackfillRepository.java"),
            Map.entry("backfill_partition", "control/src/main/java/dev/sluice/control/backfill/BackfillRepository.java"),
            Map.entry("erasure_log", "warehouse/src/main/java/dev/sluice/warehouse/meta/ErasureLogTable.java"),
            Map.entry("freshness_state", "operations/src/main/java/dev/sluice/operations/freshness/FreshnessMonitor.java"),
            Map.entry("hot_offset", "warehouse/src/main/java/dev/sluice/warehouse/meta/HotOffsetTable.java"),
            Map.entry("hot_window_lock", "hot-path/src/main/java/dev/sluice/hotpath/WindowTable.java"),
            Map.entry("landed_file", "control/src/main/java/dev/sluice/control/landing/LandedFileRepository.java"),
            Map.entry("lineage_alias", "lineage/src/main/java/dev/sluice/lineage/store/DatasetAliases.java"),
            Map.entry("lineage_column", "lineage/src/main/java/dev/sluice/lineage/store/LineageRepository.java"),
            Map.entry("lineage_edge", "lineage/src/main/java/dev/sluice/lineage/store/LineageRepository.java"),
            Map.entry("lineage_event", "lineage/src/main/java/dev/sluice/lineage/store/LineageRepository.java"),
            Map.entry("lineage_graph", "lineage/src/main/java/dev/sluice/lineage/store/DatasetGraph.java"),
            Map.entry("lineage_run", "lineage/src/main/java/dev/sluice/lineage/store/LineageRuns.java"),
            Map.entry("lineage_run_dataset", "lineage/src/main/java/dev/sluice/lineage/store/LineageRuns.java"),
            Map.entry("lineage_static", "lineage/src/main/java/dev/sluice/lineage/store/StaticLineage.java"),
            Map.entry("lineage_static_event", "lineage/src/main/java/dev/sluice/lineage/store/StaticLineage.java"),
            Map.entry("lineage_static_io", "lineage/src/main/java/dev/sluice/lineage/store/StaticLineage.java"),
            Map.entry("lineage_static_ref", "lineage/src/main/java/dev/sluice/lineage/store/StaticLineage.java"),
            Map.entry("missed_partition", "warehouse/src/main/java/dev/sluice/warehouse/meta/MissedPartitionTable.java"),
            Map.entry("partition_version", "warehouse/src/main/java/dev/sluice/warehouse/meta/PartitionVersionTable.java"),
            Map.entry("published_partition", "warehouse/src/main/java/dev/sluice/warehouse/meta/PublishedPartitionTable.java"),
            Map.entry("quality_results", "control/src/main/java/dev/sluice/control/quality/QualityResultRepository.java"),
            Map.entry("quarantine", "warehouse/src/main/java/dev/sluice/warehouse/meta/QuarantineTable.java"),
            Map.entry("rollback_log", "warehouse/src/main/java/dev/sluice/warehouse/meta/RollbackLogTable.java"),
            Map.entry("schema_drift", "control/src/main/java/dev/sluice/control/drift/SchemaDriftRepository.java")));

    private static final Pattern CREATE = Pattern.compile("(?i)create table (?:if not exists )?sluice\\.([a-z_]+)");
    private static final Pattern DOTTED = Pattern.compile("(?i)\\bsluice\\.([a-z_]+)\\b(?!\\.[a-z])"); // not a metric name such as sluice.run.last.duration
    private static final Pattern NAMED = Pattern.compile("\"sluice\"\\s*,\\s*\"([a-z_]+)\"");
    /** The schema with a table name computed at run time ({@code DSL.name("sluice", name)}): no owner can be told. */
    private static final Pattern COMPUTED = Pattern.compile("name\\(\\s*\"sluice\"\\s*,\\s*[^\"\\s]");
    private static final Pattern COMMENTS = Pattern.compile("(?s)/\\*.*?\\*/|//[^\\n\"]*$", Pattern.MULTILINE);

    @Test
    void everySluiceTableHasOneOwnerAndIsNamedNowhereElse() throws IOException {
        Path root = TestHome.projectRoot();
        Set<String> tables = tablesOfTheMigrations(root.resolve("warehouse/src/main/resources/db/migration"));
        assertThat(tables).as("tables the migrations create").contains("run", "quarantine");
        assertThat(OWNERS.keySet()).as("every sluice table has an owner, and every owner a table").isEqualTo(tables);
        OWNERS.values().forEach(owner -> assertThat(root.resolve(owner)).as("owner file").isRegularFile());

        List<String> violations = new ArrayList<>();
        List<Path> modules;
        try (Stream<Path> dirs = Files.list(root)) { // every module, a new one included
            modules = dirs.filter(d -> Files.isRegularFile(d.resolve("pom.xml"))).sorted().toList();
        }
        assertThat(modules).as("modules found").hasSizeGreaterThan(10);
        for (Path module : modules) {
            Path main = module.resolve("src/main/java");
            if (!Files.isDirectory(main)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(main)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                    String relative = root.relativize(file).toString();
                    // comments out, their line breaks kept: line numbers stay true
                    String code = COMMENTS.matcher(Files.readString(file))
                            .replaceAll(c -> "\n".repeat((int) c.group().chars().filter(ch -> ch == '\n').count()));
                    Matcher computed = COMPUTED.matcher(code);
                    while (computed.find()) {
                        violations.add(relative + ":" + (code.substring(0, computed.start()).split("\n", -1).length)
                                + " names a sluice table computed at run time");
                    }
                    for (Pattern p : List.of(DOTTED, NAMED)) {
                        Matcher m = p.matcher(code);
                        while (m.find()) {
                            String table = m.group(1).toLowerCase(java.util.Locale.ROOT);
                            if (tables.contains(table) && !OWNERS.get(table).equals(relative)) {
                                int line = code.substring(0, m.start()).split("\n", -1).length;
                                violations.add(relative + ":" + line + " names sluice." + table + " (owner: "
                                        + OWNERS.get(table).replaceAll(".*/", "") + ")");
                            }
                        }
                    }
                }
            }
        }
        assertThat(violations).as("sluice tables named outside their owner").isEmpty();
    }

    private static Set<String> tablesOfTheMigrations(Path migrations) throws IOException {
        Set<String> out = new TreeSet<>();
        try (Stream<Path> files = Files.walk(migrations)) {
            for (Path f : files.filter(x -> x.toString().endsWith(".sql")).toList()) {
                Matcher m = CREATE.matcher(Files.readString(f));
                while (m.find()) {
                    String t = m.group(1);
                    if (t.equals(t.toLowerCase(java.util.Locale.ROOT))) { // BATCH_* and QRTZ_* are the frameworks'
                        out.add(t);
                    }
                }
            }
        }
        return out;
    }
}
