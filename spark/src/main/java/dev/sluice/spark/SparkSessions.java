package dev.sluice.spark;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.spark.sql.SparkSession;

/**
 * The JVM's one SparkSession and, per lakehouse catalog, a session of it: the only place a
 * SparkSession is built. Iceberg's session extensions ({@code MERGE INTO}, procedures) must be set
 * before the session is built, so they always are.
 *
 * <p>The root session: {@code local[*]} runs Spark inside this process; a {@code spark://} or other
 * master URL sends the work to a cluster (which must reach the warehouse and the lakehouse's
 * location). The UI is off (Boot's Jersey breaks it, see ../shared/DEPENDENCIES.md), timestamps
 * without time zone stay naive ({@code TIMESTAMP_NTZ}), the session time zone is UTC. A later call
 * with another master gets the first session (one SparkContext per JVM).
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

    private static SparkSession root;
    private static String rootMaster;
    private static final Map<LakehouseCatalog, SparkSession> LAKEHOUSES = new HashMap<>();
    private static final java.util.List<Consumer<SparkSession>> CONFIGURERS = new java.util.ArrayList<>();

    private SparkSessions() {
    }

    /** The root session, created on first use on {@code master} (e.g. {@code local[*]}). */
    public static synchronized SparkSession root(String master) {
        if (root == null) {
            root = SparkSession.builder()
                    .appName("sluice")
                    .master(master)
                    .config("spark.ui.enabled", "false")
                    .config("spark.ui.showConsoleProgress", "false")
                    .config("spark.driver.host", "127.0.0.1")
                    .config("spark.driver.bindAddress", "127.0.0.1")
                    .config("spark.sql.shuffle.partitions", "4")
                    .config("spark.sql.session.timeZone", "UTC")
                    .config("spark.sql.timestampType", "TIMESTAMP_NTZ")
                    .config("spark.sql.adaptive.enabled", "true")
                    .config("spark.sql.extensions", "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions")
                    .getOrCreate();
            rootMaster = master;
            CONFIGURERS.forEach(c -> c.accept(root));
        }
        return root;
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
