package dev.sluice.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.app.cli.SluiceCommand;
import dev.sluice.batch.testkit.TableChecksum;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.config.SluiceEnvironment;
import dev.sluice.config.TableSpec;
import dev.sluice.config.WarehouseSpec;
import dev.sluice.core.DatasetRef;
import dev.sluice.spark.LakehouseCatalog;
import dev.sluice.spark.SparkSessions;
import dev.sluice.warehouse.Warehouse;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILL of {@code sluice rollback} on the lakehouse at {@code lakehouse-rolled-back:<table>}:
 * after its Iceberg commit (main holds the target version's files), before the control plane
 * records it. The next command that reads the partition, {@code sluice status} the first time, the
 * rollback asked again the second, a plain {@code sluice run} of the partition the third, records
 * the rollback from the commit's summary: main's
 * version, {@code sluice.published_partition} and {@code sluice.rollback_log} agree, and main's rows
 * are the target version's, checksum for checksum. {@code flights_lake} on 2001-07-01: version 1 as
 * shipped, version 2 with 1,000 added to Gold's {@code flights}. Before, {@code published_partition}
 * kept naming the version rolled back from until the rollback was run again by hand.
 */
class LakehouseRollbackKillIT {

    private static final String DAY = "2001-07-01";
    private static final String GOLD = "gold.lake_airport_daily_delays";
    private static final String POINT = "lakehouse-rolled-back:" + GOLD;

    @TempDir
    Path dir;

    @Test
    void theNextCommandRecordsARollbackKilledAfterItsIcebergCommit() throws Exception {
        Path pipelines = Files.createDirectories(dir.resolve("pipelines/contracts")).getParent();
        for (String c : List.of("flights.v1.yaml", "airports.v1.yaml")) {
            Files.copy(TestHome.projectRoot().resolve("pipelines/contracts/" + c), pipelines.resolve("contracts/" + c));
        }
        String shipped = Files.readString(TestHome.projectRoot().resolve("pipelines/flights_lake.yaml"));
        String count = "               COUNT(*) AS flights,\n";
        assertThat(shipped).contains(count);
        Path file = Files.writeString(pipelines.resolve("flights_lake.yaml"), shipped);
        Map<String, String> env = new HashMap<>();
        env.put("SLUICE_HOME", TestHome.withSampleData().toString());
        env.put("SLUICE_WAREHOUSE_URL", TestHome.freshH2Url() + ";WRITE_DELAY=0");
        env.put("SLUICE_LAKEHOUSE", TestHome.projectRoot().resolve("target/it-lakehouses/rollback-kill-" + UUID.randomUUID())
                .toAbsolutePath().toString());
        env.put("SLUICE_PIPELINES", pipelines.toString());
        String url = env.get("SLUICE_WAREHOUSE_URL");

        assertThat(sluice(env, "run", "flights_lake", "--partition", DAY).exit()).isZero();
        PipelineSpec spec = new PipelineSpecLoader(new SluiceEnvironment(env).interpolator()).load(file);
        TableSpec gold = spec.table(DatasetRef.parse(GOLD)).orElseThrow();
        SparkSession spark = SparkSessions.lakehouse(spec.sparkMaster(), new LakehouseCatalog(url, "sa", "", env.get("SLUICE_LAKEHOUSE")));
        String v1 = TableChecksum.of(spark, gold, "_sluice_partition = '" + DAY + "'");
        long rows = spark.sql("SELECT COUNT(*) FROM " + GOLD + " WHERE _sluice_partition = '" + DAY + "'").first().getLong(0);
        Files.writeString(file, shipped.replace(count, "               COUNT(*) + 1000 AS flights,\n"));
        assertThat(sluice(env, "run", "flights_lake", "--partition", DAY, "--rerun").exit()).isZero();
        String v2 = TableChecksum.of(spark, gold, "_sluice_partition = '" + DAY + "'");
        assertThat(v2).isNotEqualTo(v1);
        assertThat(state(spark, url)).isEqualTo(new State(2, 2, 0));

        // 1. killed between the commit and the record; sluice status is the next command
        FaultPointKill.killAt(POINT, env, "rollback", "flights_lake", GOLD, "--partition", DAY, "--reason", "inflated counts");
        assertThat(state(spark, url)).as("main on version 1, the control plane still on 2").isEqualTo(new State(1, 2, 0));
        assertThat(sluice(env, "status", "flights_lake").exit()).isZero();
        assertThat(state(spark, url)).isEqualTo(new State(1, 1, 1));
        assertThat(TableChecksum.of(spark, gold, "_sluice_partition = '" + DAY + "'")).isEqualTo(v1);
        assertThat(spark.sql("SELECT COUNT(*) FROM " + GOLD + " WHERE _sluice_partition = '" + DAY + "'").first().getLong(0))
                .isEqualTo(rows);
        assertThat(lastRollback(url)).isEqualTo("2 -> 1 by " + System.getProperty("user.name") + ": inflated counts");

        // 2. killed again on the way back to version 2; the rollback asked again is the next command, and changes nothing more
        FaultPointKill.killAt(POINT, env, "rollback", "flights_lake", GOLD, "--partition", DAY, "--to-version", "2", "--reason", "fixed");
        assertThat(state(spark, url)).as("main on version 2, the control plane still on 1").isEqualTo(new State(2, 1, 1));
        Result again = sluice(env, "rollback", "flights_lake", GOLD, "--partition", DAY, "--to-version", "2", "--reason", "fixed");
        assertThat(again.exit()).isZero();
        assertThat(again.out()).contains("already at version 2; nothing changed");
        assertThat(state(spark, url)).isEqualTo(new State(2, 2, 2));
        assertThat(TableChecksum.of(spark, gold, "_sluice_partition = '" + DAY + "'")).isEqualTo(v2);
        assertThat(lastRollback(url)).isEqualTo("1 -> 2 by " + System.getProperty("user.name") + ": fixed");

        // 3. killed once more; a plain run of the (completed) partition is the next command
        FaultPointKill.killAt(POINT, env, "rollback", "flights_lake", GOLD, "--partition", DAY, "--reason", "inflated again");
        assertThat(state(spark, url)).isEqualTo(new State(1, 2, 2));
        sluice(env, "run", "flights_lake", "--partition", DAY);
        assertThat(state(spark, url)).isEqualTo(new State(1, 1, 3));
        assertThat(TableChecksum.of(spark, gold, "_sluice_partition = '" + DAY + "'")).isEqualTo(v1);
        assertThat(lastRollback(url)).isEqualTo("2 -> 1 by " + System.getProperty("user.name") + ": inflated again");
    }

    /** Main's version of the partition (its current snapshot's summary), the control plane's published version, rollbacks logged. */
    private record State(int main, int published, int rollbacks) {
    }

    private static State state(SparkSession spark, String url) {
        int main = Integer.parseInt(spark.sql("SELECT s.summary['sluice.version'] FROM " + GOLD + ".refs r JOIN " + GOLD
                + ".snapshots s ON r.snapshot_id = s.snapshot_id WHERE r.name = 'main'").first().getString(0));
        try (Warehouse w = Warehouse.open(new WarehouseSpec(url, "sa", ""))) {
            int published = w.dsl().resultQuery("SELECT version FROM sluice.published_partition WHERE dataset = ? AND partition_key = ?",
                    GOLD, DAY).fetchOne(0, Integer.class);
            int rollbacks = w.dsl().resultQuery("SELECT COUNT(*) FROM sluice.rollback_log WHERE dataset = ?", GOLD).fetchOne(0, Integer.class);
            return new State(main, published, rollbacks);
        }
    }

    private static String lastRollback(String url) {
        try (Warehouse w = Warehouse.open(new WarehouseSpec(url, "sa", ""))) {
            return w.dsl().resultQuery("SELECT from_version || ' -> ' || to_version || ' by ' || requested_by || ': ' || reason"
                    + " FROM sluice.rollback_log WHERE dataset = ? ORDER BY rolled_back_at DESC, from_version LIMIT 1", GOLD).fetchOne(0, String.class);
        }
    }

    private record Result(int exit, String out) {
    }

    private static Result sluice(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        int exit = SluiceCommand.execute(new SluiceEnvironment(env), new PrintWriter(out, true), new PrintWriter(new StringWriter(), true), args);
        return new Result(exit, out.toString());
    }
}
