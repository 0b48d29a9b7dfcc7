package dev.sluice.engine.lakehouse;


import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link OrphanFiles} on a real Iceberg table (the lakehouse's JDBC catalog on an in-memory H2, its
 * Hadoop file IO on a temporary directory), partitioned as the lakehouse's tables are
 * ({@code _sluice_partition=…} directories): two committed data files, then a commit that replaces
 * one of them and the expiry of the snapshot that held it without Iceberg's cleanup (its data file,
 * manifest list and manifest are orphans now). Every file of
 * the table is then made 10 days old, so only reachability keeps a file; planted beside them: an
 * old orphan in a partition directory (with Hadoop's hidden checksum file), an old orphan in the
 * metadata directory, an old hidden file, and a young orphan (an hour: a write in flight).
 */
class OrphanFilesTest {

    private static final Duration GRACE = Duration.ofDays(3);

    @TempDir
    Path dir;

    private Table table;
    private Path location;

    @BeforeEach
    void table() throws IOException {
        JdbcCatalog catalog = new JdbcCatalog();
        catalog.setConf(new Configuration());
        catalog.initialize("orphans", Map.of(CatalogProperties.URI, "jdbc:h2:mem:orphans-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
                CatalogProperties.WAREHOUSE_LOCATION, dir.toString()));
        catalog.createNamespace(Namespace.of("bronze"));
        Schema schema = new Schema(Types.NestedField.optional(1, "id", Types.LongType.get()),
                Types.NestedField.optional(2, LakehouseNames.PARTITION, Types.StringType.get()));
        table = catalog.createTable(TableIdentifier.of("bronze", "t"), schema,
                PartitionSpec.builderFor(schema).identity(LakehouseNames.PARTITION).build());
        location = Path.of(OrphanFiles.normal(table.location()));
    }

    @Test
    void findsAndDeletesTheUnreferencedFilesOlderThanTheGracePeriodOnly() throws IOException {
        DataFile a = dataFile("a");
        DataFile b = dataFile("b");
        table.newFastAppend().appendFile(a).appendFile(b).commit();
        var first = table.currentSnapshot();
        List<String> expired = new ArrayList<>(List.of(OrphanFiles.normal(first.manifestListLocation())));
        first.allManifests(table.io()).forEach(m -> expired.add(OrphanFiles.normal(m.path())));
        DataFile c = dataFile("c");
        table.newRewrite().deleteFile(a).addFile(c).commit();
        table.currentSnapshot().allManifests(table.io()).forEach(m -> expired.remove(OrphanFiles.normal(m.path())));
        table.expireSnapshots().expireSnapshotId(first.snapshotId()).cleanExpiredFiles(false).commit();
        table.refresh();
        assertThat(table.snapshots()).hasSize(1);
        assertThat(expired).as("the expired snapshot's manifest list and its manifest the rewrite left").hasSize(2);

        Instant tenDaysAgo = Instant.now().minus(Duration.ofDays(10));
        List<Path> committed = files();
        for (Path f : committed) {
            Files.setLastModifiedTime(f, FileTime.from(tenDaysAgo));
        }
        Path partitionDir = Path.of(OrphanFiles.normal(b.location())).getParent();
        Path oldOrphan = plant(partitionDir.resolve("killed-before-commit.parquet"), tenDaysAgo);
        Path oldMetadata = plant(location.resolve("metadata/killed-before-commit.avro"), tenDaysAgo);
        Path checksum = plant(partitionDir.resolve(".killed-before-commit.parquet.crc"), tenDaysAgo);
        Path hidden = plant(partitionDir.resolve(".another-tool"), tenDaysAgo);
        Path young = plant(partitionDir.resolve("in-flight.parquet"), Instant.now().minus(Duration.ofHours(1)));
        Path replaced = Path.of(OrphanFiles.normal(a.location()));

        Instant cutoff = Instant.now().minus(GRACE);
        List<String> expected = new ArrayList<>(expired);
        expected.addAll(List.of(replaced.toString(), oldOrphan.toString(), oldMetadata.toString()));
        assertThat(OrphanFiles.find(table, cutoff)).extracting(OrphanFiles::normal).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(OrphanFiles.delete(table, cutoff, true)).as("a dry run counts").isEqualTo(5);
        assertThat(replaced).exists();
        assertThat(oldOrphan).exists();

        assertThat(OrphanFiles.delete(table, cutoff, false)).isEqualTo(5);
        assertThat(replaced).doesNotExist();
        assertThat(oldOrphan).doesNotExist();
        assertThat(oldMetadata).doesNotExist();
        assertThat(young).as("younger than the grace period").exists();
        assertThat(hidden).as("hidden, as Iceberg's action skips it").exists();
        assertThat(checksum).as("Hadoop's checksum file goes with its file").doesNotExist();
        List<Path> left = new ArrayList<>(committed);
        left.remove(replaced);
        left.removeIf(f -> expired.contains(f.toString()));
        assertThat(left).as("every file the table references").allMatch(Files::exists).hasSize(committed.size() - 3);
        table.refresh();
        List<String> live = new ArrayList<>();
        try (var tasks = table.newScan().planFiles()) {
            tasks.forEach(t -> live.add(t.file().location()));
        }
        assertThat(live).containsExactlyInAnyOrder(b.location(), c.location());
        assertThat(OrphanFiles.find(table, cutoff)).isEmpty();
    }

    @Test
    void locationsCompareWithoutTheLocalScheme() {
        assertThat(OrphanFiles.normal("file:/lake/t/data/x.parquet")).isEqualTo("/lake/t/data/x.parquet");
        assertThat(OrphanFiles.normal("file:///lake/t/data/x.parquet")).isEqualTo("/lake/t/data/x.parquet");
        assertThat(OrphanFiles.normal("/lake/t/data/x.parquet")).isEqualTo("/lake/t/data/x.parquet");
        assertThat(OrphanFiles.normal("s3://bucket/t/x.parquet")).isEqualTo("s3://bucket/t/x.parquet");
        assertThat(OrphanFiles.hidden("/lake/t", "/lake/t/data/_sluice_partition=2001-01-01/x.parquet")).isFalse();
        assertThat(OrphanFiles.hidden("/lake/t", "/lake/t/data/_sluice_partition=2001-01-01/.x.parquet.crc")).isTrue();
        assertThat(OrphanFiles.hidden("/lake/t", "/lake/t/data/_temporary/x.parquet")).isTrue();
    }

    /** A committed-to-be data file of one row in partition 2001-01-01, its bytes on disk (never read by the test). */
    private DataFile dataFile(String name) throws IOException {
        Path file = location.resolve("data/" + LakehouseNames.PARTITION + "=2001-01-01/" + name + ".parquet");
        Files.createDirectories(file.getParent());
        Files.writeString(file, name);
        return DataFiles.builder(table.spec()).withPath(file.toString()).withFileSizeInBytes(Files.size(file)).withRecordCount(1)
                .withPartitionPath(LakehouseNames.PARTITION + "=2001-01-01").build();
    }

    private static Path plant(Path file, Instant modified) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, "not committed");
        Files.setLastModifiedTime(file, FileTime.from(modified));
        return file;
    }

    /** Every regular file under the table's location, hidden ones left out. */
    private List<Path> files() throws IOException {
        try (Stream<Path> walk = Files.walk(location)) {
            return walk.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().startsWith(".")).toList();
        }
    }
}
