package dev.sluice.quality.internal.deequ;

import dev.sluice.spark.LakehouseCatalog;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;

/**
 * The gates' sessions, from the JVM's one SparkSession ({@link dev.sluice.spark.SparkSessions}),
 * each with the gates' UDFs ({@link StrftimeFormat}) registered. Thread-safe.
 */
final class SparkSessions {

    private static boolean configured;

    private SparkSessions() {
    }

    /** The root session (JDBC sources), created on first use on {@code master}. */
    static SparkSession get(String master) {
        configure();
        return dev.sluice.spark.SparkSessions.root(master);
    }

    /** The session of a lakehouse catalog (table snapshot sources). */
    static SparkSession lakehouse(String master, LakehouseCatalog catalog) {
        configure();
        return dev.sluice.spark.SparkSessions.lakehouse(master, catalog);
    }

    static String master() {
        return dev.sluice.spark.SparkSessions.master();
    }

    private static synchronized void configure() {
        if (!configured) {
            dev.sluice.spark.SparkSessions.onNewSession(s -> s.udf().register(StrftimeFormat.UDF, StrftimeFormat.udf(), DataTypes.BooleanType));
            configured = true;
        }
    }
}
