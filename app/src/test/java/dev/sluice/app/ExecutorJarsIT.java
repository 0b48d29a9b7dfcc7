package dev.sluice.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.testkit.TestHome;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a cluster's executors get from the shipped executable jar ({@code app/target/sluice.jar}):
 * {@code ExecutorJars} run inside it by Spring Boot's {@code PropertiesLauncher}, so the class path
 * is the nested one a {@code sluice} process has ({@code jar:nested:…!/BOOT-INF/lib/…}). Each jar
 * comes out whole and loadable by a plain JVM, and a second process reuses the copies.
 */
class ExecutorJarsIT {

    @TempDir
    Path cache;

    private List<String> listed() throws IOException, InterruptedException {
        Path jar = TestHome.projectRoot().resolve("app/target/sluice.jar");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", jar.toString(),
                "-Dloader.main=dev.sluice.spark.ExecutorJars", "org.springframework.boot.loader.launch.PropertiesLauncher", cache.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out.lines().filter(l -> l.endsWith(".jar")).toList();
    }

    @Test
    void theShippedJarGivesTheExecutorsSluiceIcebergDeequAndTheDrivers() throws Exception {
        List<String> jars = listed();
        assertThat(jars).allSatisfy(j -> assertThat(Path.of(j)).startsWith(cache));
        List<String> names = jars.stream().map(j -> Path.of(j).getFileName().toString().replaceFirst("^[0-9a-f]+-", "")).toList();
        assertThat(names).contains("sluice-core-0.1.0-SNAPSHOT.jar", "sluice-spark-0.1.0-SNAPSHOT.jar", "sluice-quality-0.1.0-SNAPSHOT.jar",
                "sluice-batch-jobs-0.1.0-SNAPSHOT.jar", "iceberg-spark-runtime-3.5_2.12-1.10.0.jar", "deequ-2.1.0-spark-3.5.jar",
                "postgresql-42.7.11.jar", "h2-2.4.240.jar");
        assertThat(names).filteredOn(n -> n.endsWith("sluice.jar-classes.jar")).as("the app's own classes, packed").hasSize(1);
        assertThat(names).noneMatch(n -> n.startsWith("spark-core") || n.startsWith("scala-library"));
        // whole jars, each holding what it was shipped for
        assertThat(entry(jars, "sluice-quality-", "dev/sluice/quality/QualityGate.class")).isTrue();
        assertThat(entry(jars, "iceberg-spark-runtime-", "org/apache/iceberg/spark/SparkCatalog.class")).isTrue();
        assertThat(entry(jars, "deequ-", "com/amazon/deequ/VerificationSuite.class")).isTrue();
        assertThat(entry(jars, "sluice.jar-classes", "dev/sluice/app/SluiceApplication.class")).isTrue();

        // a second process finds the copies in place: same files, not rewritten
        long before = Files.getLastModifiedTime(Path.of(jars.stream().filter(j -> j.contains("iceberg-spark-runtime")).findFirst().orElseThrow())).toMillis();
        List<String> again = listed();
        assertThat(again).isEqualTo(jars);
        assertThat(Files.getLastModifiedTime(Path.of(again.stream().filter(j -> j.contains("iceberg-spark-runtime")).findFirst().orElseThrow())).toMillis())
                .isEqualTo(before);
        try (var files = Files.list(cache)) {
            assertThat(files.map(f -> f.getFileName().toString())).noneMatch(f -> f.startsWith(".writing-"));
        }
    }

    private static boolean entry(List<String> jars, String namePart, String entry) throws IOException {
        Path jar = Path.of(jars.stream().filter(j -> Path.of(j).getFileName().toString().contains(namePart)).findFirst().orElseThrow());
        try (JarFile f = new JarFile(jar.toFile())) {
            return f.getJarEntry(entry) != null;
        }
    }
}
