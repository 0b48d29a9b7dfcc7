package dev.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.batch.job.RunSummary;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.Partition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real USGS GeoJSON feed of the sample package through the same load: records at
 * {@code /features}, nested fields mapped by JSON pointer, the unmapped {@code type} key reported
 * as drift and ignored, every one of the 1,707 events accounted for.
 */
class EarthquakesJsonIT {

    @TempDir
    Path home;

    @Test
    void theUsgsFeedLoadsByJsonPointer() throws Exception {
        Path specFile = TestHome.writePipeline(home, "quakes", """
                contract: quakes
                version: 1
                drift: ignore
                columns:
                  - {name: id, type: string, nullable: false}
                  - {name: mag, type: double, path: /properties/mag}
                  - {name: place, type: string, path: /properties/place}
                  - {name: event_time, type: timestamp, nullable: false, path: /properties/time}
                  - {name: longitude, type: double, path: /geometry/coordinates/0}
                  - {name: latitude, type: double, path: /geometry/coordinates/1}
                  - {name: depth_km, type: double, path: /geometry/coordinates/2}
                """, """
                pipeline: quakes
                warehouse: {url: "${SLUICE_WAREHOUSE_URL}", user: sa, password: ""}
                sources:
                  - {name: quakes, format: json, array_path: /features, path: "${SLUICE_HOME}/landing/quakes/dt={partition}", contract: contracts/quakes.v1.yaml}
                layers:
                  bronze: [{table: bronze.quakes_raw, source: quakes}]
                  silver:
                    - table: silver.quakes
                      input: bronze.quakes_raw
                      key: [id]
                      columns: {id: string, mag: double, event_time: timestamp, longitude: double, latitude: double, depth_km: double}
                      sql: SELECT id, mag, event_time, longitude, latitude, depth_km FROM {input} q
                  gold:
                    - table: gold.quakes_by_day
                      input: silver.quakes
                      key: [event_day]
                      columns: {event_day: date, events: long, max_mag: double}
                      sql: SELECT CAST(event_time AS DATE) AS event_day, COUNT(*) AS events, MAX(mag) AS max_mag FROM {input} s GROUP BY CAST(event_time AS DATE)
                """);
        Path day = Files.createDirectories(home.resolve("landing/quakes/dt=2018-02-07"));
        Files.copy(TestHome.withSampleData().resolve("landing/earthquakes/earthquakes.json"), day.resolve("earthquakes.json"));
        PipelineSpec spec = TestHome.load(home, specFile);
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            RunSummary s = new PipelineRunner(w, home).run(spec, Partition.daily(LocalDate.parse("2018-02-07")), RunOptions.plain());
            assertThat(s.failure()).isNull();
            assertThat(s.rowsRead()).isEqualTo(1707);
            assertThat(s.bronzeRows()).isEqualTo(1707);
            assertThat(s.silverRows() + s.duplicatesCollapsed() + s.quarantined()).isEqualTo(1707);
            assertThat(s.silverRows()).isEqualTo(1707);
            assertThat(w.dsl().resultQuery("SELECT SUM(events) FROM gold.quakes_by_day").fetchOne(0, Long.class)).isEqualTo(1707L);
            assertThat(w.dsl().resultQuery("SELECT change_kind || ' ' || column_name || ' ' || outcome FROM sluice.schema_drift")
                    .fetch(0, String.class)).containsExactly("ADDED type IGNORED");
            assertThat(w.dsl().resultQuery("SELECT place FROM bronze.quakes_raw WHERE id = 'ci37868143'").fetchOne(0, String.class))
                    .isEqualTo("4km W of Castaic, CA");
        }
    }
}
