package dev.sluice.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The baseline of the medallion measure: DuckDB (JDBC driver, in this JVM) running the flights
 * pipeline's three SQL steps over the same files, persisted to a DuckDB database file, as a user
 * who picks DuckDB instead would write them: Bronze = the Parquet files and the airports CSV as
 * tables (with the source file name and ingest time); Silver = the same quarantine rules (first
 * match wins, into a quarantine table) and the same typed, de-duplicated {@code silver.flights}
 * SQL as {@code pipelines/flights.yaml}; Gold = the same three marts. No quality checks run (the
 * measure compares it with Sluice with its gates on). Timed from opening the file to its last
 * commit; the JVM start is not counted, which favours the baseline. Not thread-safe.
 */
final class DuckDbMedallion {

    private DuckDbMedallion() {
    }

    /**
     * Runs the three steps into a new database file {@code db}.
     *
     * @param flights a directory of the flights Parquet files
     * @param airports the airports CSV file
     * @return the row count of each table it built, by table name, in build order
     */
    static Map<String, Long> run(Path flights, Path airports, Path db) throws Exception {
        Files.deleteIfExists(db);
        Map<String, Long> rows = new LinkedHashMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db.toAbsolutePath()); Statement st = c.createStatement()) {
            // Bronze: raw as landed, with ingest metadata
            st.execute("CREATE TABLE bronze_flights AS SELECT date, delay, distance, origin, destination, filename AS _source,"
                    + " now() AS _ingested_at FROM read_parquet('" + flights.toAbsolutePath() + "/*.parquet', filename = true)");
            st.execute("CREATE TABLE bronze_airports AS SELECT *, now() AS _ingested_at FROM read_csv('" + airports.toAbsolutePath()
                    + "', header = true, all_varchar = true)");
            // Silver: the flights.yaml rules and SQL
            st.execute("CREATE TABLE silver_airports AS SELECT iata, name, city, state, country, CAST(latitude AS DOUBLE) AS latitude,"
                    + " CAST(longitude AS DOUBLE) AS longitude FROM bronze_airports");
            st.execute("CREATE TABLE judged AS SELECT f.*, CASE"
                    + " WHEN date IS NULL OR delay IS NULL OR distance IS NULL OR origin IS NULL OR destination IS NULL THEN 'required_value_missing'"
                    + " WHEN delay < -120 OR delay > 2880 THEN 'delay_out_of_range'"
                    + " WHEN distance <= 0 THEN 'distance_not_positive'"
                    + " WHEN NOT EXISTS (SELECT 1 FROM silver_airports ap WHERE ap.iata = f.origin)"
                    + "   OR NOT EXISTS (SELECT 1 FROM silver_airports ap WHERE ap.iata = f.destination) THEN 'unknown_airport'"
                    + " END AS _rule FROM bronze_flights f");
            st.execute("CREATE TABLE quarantine AS SELECT * FROM judged WHERE _rule IS NOT NULL");
            st.execute("CREATE TABLE silver_flights AS SELECT f.date AS flight_ts, CAST(f.date AS DATE) AS flight_date, f.origin,"
                    + " f.destination, f.delay AS delay_min, f.distance AS distance_mi, o.state AS origin_state, d.state AS dest_state,"
                    + " COUNT(*) AS dup_count FROM (SELECT * FROM judged WHERE _rule IS NULL) f"
                    + " JOIN silver_airports o ON o.iata = f.origin JOIN silver_airports d ON d.iata = f.destination"
                    + " GROUP BY f.date, f.origin, f.destination, f.delay, f.distance, o.state, d.state");
            st.execute("DROP TABLE judged");
            // Gold: the three marts
            st.execute("CREATE TABLE gold_airport_daily_delays AS SELECT flight_date, origin, COUNT(*) AS flights,"
                    + " SUM(CASE WHEN delay_min >= 15 THEN 1 ELSE 0 END) AS delayed_15,"
                    + " CAST(SUM(delay_min) AS DOUBLE) / COUNT(*) AS avg_delay_min, MAX(delay_min) AS max_delay_min,"
                    + " SUM(distance_mi) AS total_distance_mi FROM silver_flights GROUP BY flight_date, origin");
            st.execute("CREATE TABLE gold_route_daily AS SELECT flight_date, origin, destination, COUNT(*) AS flights,"
                    + " CAST(SUM(delay_min) AS DOUBLE) / COUNT(*) AS avg_delay_min FROM silver_flights GROUP BY flight_date, origin, destination");
            st.execute("CREATE TABLE gold_airport_monthly_delays AS SELECT strftime(flight_date, '%Y-%m') AS flight_month, origin,"
                    + " COUNT(*) AS days, SUM(flights) AS flights, SUM(delayed_15) AS delayed_15,"
                    + " SUM(avg_delay_min * flights) / SUM(flights) AS avg_delay_min, MAX(max_delay_min) AS max_delay_min"
                    + " FROM gold_airport_daily_delays GROUP BY 1, 2");
            st.execute("CHECKPOINT");
            for (String t : new String[] {"bronze_flights", "bronze_airports", "silver_airports", "quarantine", "silver_flights",
                    "gold_airport_daily_delays", "gold_route_daily", "gold_airport_monthly_delays"}) {
                try (ResultSet r = st.executeQuery("SELECT COUNT(*) FROM " + t)) {
                    r.next();
                    rows.put(t, r.getLong(1));
                }
            }
        }
        return rows;
    }

    /**
     * Each Gold mart of a database {@link #run} built: its rows, its summed {@code flights} and
     * its summed {@code avg_delay_min}, by table name ({@code gold_airport_daily_delays},
     * {@code gold_route_daily}, {@code gold_airport_monthly_delays}).
     */
    static Map<String, GrowthCheck.Mart> marts(Path db) throws Exception {
        Map<String, GrowthCheck.Mart> marts = new LinkedHashMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + db.toAbsolutePath()); Statement st = c.createStatement()) {
            for (String t : new String[] {"gold_airport_daily_delays", "gold_route_daily", "gold_airport_monthly_delays"}) {
                try (ResultSet r = st.executeQuery("SELECT COUNT(*), SUM(flights), SUM(avg_delay_min) FROM " + t)) {
                    r.next();
                    marts.put(t, new GrowthCheck.Mart(r.getLong(1), r.getLong(2), r.getDouble(3)));
                }
            }
        }
        return marts;
    }
}
