package dev.sluice.quality.internal.deequ;

import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;

/**
 * The one SparkSession of the JVM, created on first use. {@code local[*]} runs Spark inside this
 * process; a {@code spark://} or other master URL sends the work to a cluster (which must reach
 * the warehouse: use PostgreSQL then). The UI is off (Boot's Jersey breaks it, see
 * ../shared/DEPENDENCIES.md), timestamps without time zone stay naive ({@code TIMESTAMP_NTZ}),
 * the session time zone is UTC. Thread-safe.
 */
final class SparkSessions {

    private static SparkSession session;
    private static String sessionMaster;

    private SparkSessions() {
    }

    /**
     * The session; a later call with another master gets the first session (one per JVM) and the
     * master it runs on is {@link #master()}.
     */
    static synchronized SparkSession get(String master) {
        if (session == null) {
            session = SparkSession.builder()
                    .appName("sluice-quality")
                    .master(master)
                    .config("spark.ui.enabled", "false")
                    .config("spark.ui.showConsoleProgress", "false")
                    .config("spark.driver.host", "127.0.0.1")
                    .config("spark.driver.bindAddress", "127.0.0.1")
                    .config("spark.sql.shuffle.partitions", "4")
                    .config("spark.sql.session.timeZone", "UTC")
                    .config("spark.sql.timestampType", "TIMESTAMP_NTZ")
                    .config("spark.sql.adaptive.enabled", "true")
                    .getOrCreate();
            sessionMaster = master;
            session.udf().register(StrftimeFormat.UDF, StrftimeFormat.udf(), DataTypes.BooleanType);
        }
        return session;
    }

    static synchronized String master() {
        return sessionMaster;
    }
}
