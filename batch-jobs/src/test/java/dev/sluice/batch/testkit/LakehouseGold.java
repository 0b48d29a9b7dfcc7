package dev.sluice.batch.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.sluice.batch.testkit.DuckDbReference.AirportDay;
import java.time.LocalDate;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Checks {@code gold.lake_airport_daily_delays} of a lakehouse flights load against DuckDB's answer
 * on the original file ({@link DuckDbReference}): every airport of the day, every value; the
 * average to a relative 1e-9.
 */
public final class LakehouseGold {

    private LakehouseGold() {
    }

    /** Asserts that {@code spark}'s lakehouse holds DuckDB's rows for {@code day}. */
    public static void assertMatchesDuckDb(SparkSession spark, LocalDate day) throws java.sql.SQLException {
        List<AirportDay> expected = DuckDbReference.airportDailyDelays(TestHome.originalFlights(), TestHome.originalAirports(), day);
        List<Row> actual = spark.sql("SELECT origin, flights, delayed_15, avg_delay_min, max_delay_min, total_distance_mi"
                + " FROM gold.lake_airport_daily_delays WHERE flight_date = DATE '" + day + "' ORDER BY origin").collectAsList();
        assertThat(expected).as("reference rows on %s", day).isNotEmpty();
        assertThat(actual).as("airports on %s", day).hasSize(expected.size());
        for (int i = 0; i < expected.size(); i++) {
            AirportDay e = expected.get(i);
            Row a = actual.get(i);
            assertThat(a.getString(0)).isEqualTo(e.origin());
            assertThat(a.getLong(1)).as("flights %s %s", day, e.origin()).isEqualTo(e.flights());
            assertThat(a.getLong(2)).as("delayed_15 %s %s", day, e.origin()).isEqualTo(e.delayed15());
            assertThat(a.getDouble(3)).as("avg_delay_min %s %s", day, e.origin())
                    .isCloseTo(e.avgDelayMin(), within(Math.abs(e.avgDelayMin()) * 1e-9 + 1e-12));
            assertThat(a.getLong(4)).as("max_delay_min %s %s", day, e.origin()).isEqualTo(e.maxDelayMin());
            assertThat(a.getLong(5)).as("total_distance_mi %s %s", day, e.origin()).isEqualTo(e.totalDistanceMi());
        }
    }
}
