package dev.sluice.spark;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JVM's one SparkSession and, per lakehouse catalog, a session of it: the only place a
 * SparkSession is built. Iceberg's session extensions ({@code MERGE INTO}, procedures) must be set
 * before the session is built, so they always are.
 *
 * <p>The root session: {@code local[*]} runs Spark inside this process, its driver on loopback; a
 * {@code spark://} or other master URL sends the work to a cluster, whose executors must reach the
 * warehouse, the lakehouse's location and this driver (Spark's own {@code SPARK_LOCAL_IP} or
 * {@code -Dspark.driver.host} says at which address). On a cluster Sluice's, Iceberg's and Deequ's
 * classes and the JDBC drivers go to the executors as {@code spark.jars} ({@link ExecutorJars}).
 * Other Spark settings come from {@code -Dspark.…} system properties (e.g.
 * {@code -Dspark.executor.memory=4g} in {@code SLUICE_JAVA_OPTS}), which Spark reads itself;
 * Sluice's defaults of {@code spark.sql.shuffle.partitions} (4) and {@code spark.sql.adaptive.enabled}
 * (true) give way to such an option, its settings of the UI, time zone and extensions do not. The UI
 * is off (Boot's Jersey breaks it, see ../shared/DEPENDENCIES.md; the master's UI still lists the
 * application and its executors), timestamps without time zone stay naive
 * ({@code TIMESTAMP_NTZ}), the session time zone is UTC. A later call with another master gets the
 * first session (one SparkContext per JVM).
 *
 * <p>A lakehouse session ({@link #lakehouse}) is {@link SparkSession#newSession()} of the root one:
 * the same SparkContext, its own SQL configuration, with the Iceberg catalog {@link LakehouseCatalog#NAME}
 * bound to that warehouse as the default catalog, so {@code silver.flights} in a spec's SQL is that
 * lakehouse's table. One per distinct catalog, kept for the JVM's life.
 *
 * <p>Each new session is handed to the configurers given to {@link #onNewSession} (the quality
 * gates register their UDFs there). Thread-safe.
 */
public final class SparkSessions {

    private static final Logger LOG = LoggerFactory.getLogger(SparkSessions.class);
    private static SparkSession root;
    private static String rootMaster;
    private static final Map<LakehouseCatalog, SparkSession> LAKEHOUSES = new HashMap<>();
    private static final java.util.List<Consumer<SparkSession>> CONFIGURERS = new java.util.ArrayList<>();

    private SparkSessions() {
    }

    /** The root session, created on first use on {@code master} (e.g. {@code local[*]}). */
    public static synchronized SparkSession root(String master) {
        if (root == null) {
            SparkSession.Builder builder = SparkSession.builder()
                    .appName("sluice")
                    .master(master)
                    .config("spark.ui.enabled", "false")
                    .config("spark.ui.showConsoleProgress", "false")
                    .config("spark.sql.session.timeZone", "UTC")
                    .config("spark.sql.timestampType", "TIMESTAMP_NTZ")
                    .config("spark.sql.extensions", "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions");
            // sized for one machine's daily partitions; a -D option of the same name overrides them (a cluster's cores)
            defaultTo(builder, "spark.sql.shuffle.partitions", "4");
            defaultTo(builder, "spark.sql.adaptive.enabled", "true");
            if (isLocal(master)) {
                builder.config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1");
            } else {
                builder.config("spark.jars", executorJars());
            }
            root = builder.getOrCreate();
            rootMaster = master;
            CONFIGURERS.forEach(c -> c.accept(root));
        }
        return root;
    }

    private static void defaultTo(SparkSession.Builder builder, String key, String value) {
        if (System.getProperty(key) == null) {
            builder.config(key, value);
        }
    }

    /** Whether {@code master} runs Spark inside this process ({@code local}, {@code local[N]}, {@code local[*]}…). */
    public static boolean isLocal(String master) {
        return master.equals("local") || master.startsWith("local[");
    }

    /**
     * {@code spark.jars} for a cluster: the jars of {@link ExecutorJars} (copied out of
     * {@code sluice.jar} once into {@code java.io.tmpdir}'s {@code sluice-executor-jars}) after those
     * a {@code -Dspark.jars} system property names.
     */
    private static String executorJars() {
        Path cache = Path.of(System.getProperty("java.io.tmpdir"), "sluice-executor-jars");
        List<Path> jars = ExecutorJars.resolve(SparkSessions.class.getClassLoader(), cache);
        List<String> all = new ArrayList<>();
        String given = System.getProperty("spark.jars", "");
        if (!given.isBlank()) {
            all.add(given);
        }
        jars.forEach(j -> all.add(j.toAbsolutePath().toString()));
        LOG.info("spark: {} jars shipped to the executors: {}", jars.size(), jars.stream().map(j -> j.getFileName().toString()).toList());
        return String.join(",", all);
    }

    /** The master the root session runs on, or null before it exists. */
    public static synchronized String master() {
        return rootMaster;
    }

    /**
     * The session whose default catalog is {@code catalog}'s Iceberg catalog, created on first use
     * (the root session too, on {@code master}).
     */
    public static synchronized SparkSession lakehouse(String master, LakehouseCatalog catalog) {
        SparkSession s = LAKEHOUSES.get(catalog);
        if (s == null) {
            s = root(master).newSession();
            String prefix = "spark.sql.catalog." + LakehouseCatalog.NAME;
            s.conf().set(prefix, "org.apache.iceberg.spark.SparkCatalog");
            s.conf().set(prefix + ".type", "jdbc");
            s.conf().set(prefix + ".uri", catalog.jdbcUrl());
            s.conf().set(prefix + ".jdbc.user", catalog.user());
            s.conf().set(prefix + ".jdbc.password", catalog.password());
            s.conf().set(prefix + ".warehouse", catalog.location());
            // Bronze is appended through Iceberg's Java API (and other processes commit too): a
            // cached table would be read at a stale snapshot
            s.conf().set(prefix + ".cache-enabled", "false");
            s.conf().set("spark.sql.defaultCatalog", LakehouseCatalog.NAME);
            s.conf().set("spark.sql.sources.partitionOverwriteMode", "dynamic");
            for (Consumer<SparkSession> c : CONFIGURERS) {
                c.accept(s);
            }
            LAKEHOUSES.put(catalog, s);
        }
        return s;
    }

    /**
     * Runs {@code configurer} on every session: those that exist now and each one created later.
     * Idempotent configurers only (they may see a session twice).
     */
    public static synchronized void onNewSession(Consumer<SparkSession> configurer) {
        CONFIGURERS.add(configurer);
        if (root != null) {
            configurer.accept(root);
        }
        LAKEHOUSES.values().forEach(configurer);
    }
}
