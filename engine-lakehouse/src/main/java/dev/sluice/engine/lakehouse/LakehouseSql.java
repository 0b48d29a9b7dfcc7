package dev.sluice.engine.lakehouse;

import dev.sluice.engine.lakehouse.internal.SparkParser;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.BadInputException;
import dev.sluice.core.SluiceException;
import dev.sluice.spark.LakehouseCatalog;
import dev.sluice.spark.SparkSessions;
import dev.sluice.warehouse.Warehouse;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * {@code sluice sql} on a lakehouse pipeline: one read-only Spark SQL query in the lakehouse
 * catalog's session, so {@code gold.airport_daily_delays} is the Iceberg table (metadata tables
 * such as {@code silver.flights.snapshots} and time travel, {@code VERSION AS OF}, included).
 * Stateless and thread-safe.
 */
public final class LakehouseSql {

    private LakehouseSql() {
    }

    /**
     * What a query returned.
     *
     * @param columns the result's column names, in order
     * @param rows at most the requested number of rows, each value as Spark returns it (Long,
     *     Double, BigDecimal, String, LocalDate, LocalDateTime, …; null for SQL NULL)
     * @param total the rows the query returns in all
     */
    public record Result(List<String> columns, List<List<Object>> rows, long total) {
    }

    /**
     * Runs {@code query} (the shared SQL subset or any Spark SQL; {@link SparkDialect#toSpark}) on
     * {@code spec}'s lakehouse.
     *
     * @param maxRows the most rows returned in {@link Result#rows()} (≥ 0)
     * @throws BadInputException when Spark cannot parse the query, or it is not exactly one query
     *     (a write, DDL or command is refused before anything runs)
     * @throws SluiceException when the query fails (an unknown table or column), with Spark's first line
     */
    public static Result query(PipelineSpec spec, Warehouse warehouse, String query, int maxRows) {
        String sql = SparkDialect.toSpark(query);
        SparkParser.parseQuery(sql).ifPresent(f -> {
            throw new BadInputException("QUERY", -1, null, "Spark SQL cannot parse the query"
                    + (f.line() > 0 ? " at line " + f.line() : "") + (f.token().isEmpty() ? "" : " near " + f.token()) + ": " + f.message());
        });
        if (!SparkParser.isQuery(sql)) {
            throw new BadInputException("QUERY", -1, null, "sluice sql runs exactly one SELECT; it never writes");
        }
        SparkParser.javaCall(sql, false).ifPresent(f -> {
            throw new BadInputException("QUERY", -1, null, "sluice sql refuses Spark's " + f + "(): it calls any Java method");
        });
        LakehouseCatalog catalog = new LakehouseCatalog(warehouse.jdbcUrl(), warehouse.spec().user(), warehouse.spec().password(),
                spec.engine().location());
        SparkSession spark = SparkSessions.lakehouse(spec.sparkMaster(), catalog);
        try {
            Dataset<Row> df = spark.sql(sql);
            List<List<Object>> rows = new ArrayList<>();
            for (Row r : df.limit(maxRows).collectAsList()) {
                List<Object> values = new ArrayList<>();
                for (int i = 0; i < r.length(); i++) {
                    values.add(r.get(i));
                }
                rows.add(values);
            }
            long total = rows.size() < maxRows ? rows.size() : df.count();
            return new Result(List.of(df.columns()), rows, total);
        } catch (Exception e) { // Spark's AnalysisException is a checked exception Scala throws undeclared
            throw new SluiceException("the query failed: " + reason(e), e);
        }
    }

    /**
     * Spark's first line, or what it means when Iceberg's JDBC catalog answered instead: Spark looks
     * a name it finds in no table up as a view, and the catalog (without view support) refuses
     * that with a hint about its schema version, which would send a user the wrong way.
     */
    static String reason(Exception e) {
        String message = String.valueOf(e.getMessage());
        if (message.contains("without view support")) {
            return "a table the query names is not in the lakehouse catalog (the pipeline's bronze, silver and gold tables are;"
                    + " the sluice.* tables are in the warehouse database, not the lakehouse)";
        }
        return message.lines().findFirst().orElse("");
    }
}
