package dev.sluice.batch.engine.lakehouse;

/** Placeholder until the shared-SQL-subset work lands: rewrites nothing. */
public final class SparkDialect {

    private SparkDialect() {
    }

    public static String toSpark(String sql) {
        return sql.replaceAll("(?i)DOUBLE\\s+PRECISION", "DOUBLE");
    }
}
