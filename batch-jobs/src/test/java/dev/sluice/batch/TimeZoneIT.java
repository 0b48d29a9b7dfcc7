package dev.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.formats.LocalParquetFile;
import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.Partition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.TimeZone;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Timestamps do not move with the machine's time zone: the same load under two JVM default zones
 * (one with DST, one without) stores the same values. A naive Parquet timestamp keeps its
 * wall-clock value; a UTC-adjusted one is stored as the same instant, in UTC.
 */
class TimeZoneIT {

    private static final List<String> ZONES = List.of("America/Los_Angeles", "Asia/Tokyo");
    private static final Partition DAY = Partition.daily(LocalDate.parse("2001-07-01"));
    private static final Partition SPRING_FORWARD = Partition.daily(LocalDate.parse("2001-04-01"));
    private final TimeZone original = TimeZone.getDefault();

    @TempDir
    Path home;

    @AfterEach
    void restoreZone() {
        useZone(original);
    }

    /** Sets the JVM's default zone; H2 caches the zone it saw first, so its cache is reset too. */
    private static void useZone(TimeZone zone) {
        TimeZone.setDefault(zone);
        org.h2.util.DateTimeUtils.resetCalendar();
    }

    @Test
    void aNaiveParquetTimestampKeepsItsWallClockValueInEveryZone() throws Exception {
        List<String> expected = new ArrayList<>();
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:");
             ResultSet rs = duck.createStatement().executeQuery("SELECT DISTINCT strftime(\"date\", '%Y-%m-%d %H:%M:%S') t FROM read_parquet('"
                     + TestHome.originalFlights() + "') WHERE CAST(\"date\" AS DATE) = DATE '2001-04-01' ORDER BY t")) {
            while (rs.next()) {
                expected.add(rs.getString(1));
            }
        }
        // 2001-04-01 is the day US clocks sprang forward: 02:00–02:59 did not exist in Los Angeles
        assertThat(expected).anyMatch(t -> t.startsWith("2001-04-01 02:"));
        for (String zone : ZONES) {
            useZone(TimeZone.getTimeZone(zone));
            PipelineSpec spec = TestHome.flightsSpec(TestHome.freshH2Url(), "sa", "");
            try (Warehouse w = Warehouse.open(spec.warehouse())) {
                new PipelineRunner(w, TestHome.withSampleData()).run(spec, SPRING_FORWARD, RunOptions.plain());
                assertThat(w.dsl().resultQuery("SELECT DISTINCT CAST(flight_ts AS VARCHAR) t"
                        + " FROM silver.flights ORDER BY t").fetch(0, String.class)).as(zone).isEqualTo(expected);
            }
        }
    }

    @Test
    void aUtcAdjustedParquetTimestampIsTheSameInstantInEveryZone() throws Exception {
        Path specFile = TestHome.writePipeline(home, "events", """
                contract: events
                version: 1
                columns:
                  - {name: id, type: long, nullable: false}
                  - {name: at, type: timestamp, nullable: false}
                """, """
                pipeline: events
                warehouse: {url: "${SLUICE_WAREHOUSE_URL}", user: sa, password: ""}
                sources:
                  - {name: events, format: parquet, path: "${SLUICE_HOME}/landing/events/dt={partition}", contract: contracts/events.v1.yaml}
                layers:
                  bronze: [{table: bronze.events_raw, source: events}]
                  silver:
                    - {table: silver.events, input: bronze.events_raw, key: [id], columns: {id: long, at: timestamp}, sql: "SELECT id, at FROM {input} e"}
                  gold:
                    - {table: gold.event_count, input: silver.events, key: [n], columns: {n: long}, sql: "SELECT COUNT(*) AS n FROM {input} s"}
                """);
        // 2001-03-25T01:30:00Z: a night when Europe moved its clocks; stored as MICROS adjusted to UTC
        long micros = Instant.parse("2001-03-25T01:30:00Z").toEpochMilli() * 1000;
        MessageType type = MessageTypeParser.parseMessageType(
                "message e { required int64 id; required int64 at (TIMESTAMP(MICROS,true)); }");
        Path dir = Files.createDirectories(home.resolve("landing/events/dt=2001-07-01"));
        try (ParquetWriter<Group> pw = ExampleParquetWriter.builder(new LocalParquetFile(dir.resolve("e.parquet")))
                .withType(type).build()) {
            pw.write(new SimpleGroupFactory(type).newGroup().append("id", 1L).append("at", micros));
        }
        for (String zone : ZONES) {
            useZone(TimeZone.getTimeZone(zone));
            PipelineSpec spec = TestHome.load(home, specFile);
            try (Warehouse w = Warehouse.open(spec.warehouse())) {
                new PipelineRunner(w, home).run(spec, DAY, RunOptions.plain());
                assertThat(w.dsl().resultQuery("SELECT CAST(at AS VARCHAR) FROM silver.events")
                        .fetchOne(0, String.class)).as(zone).isEqualTo("2001-03-25 01:30:00");
            }
        }
    }
}
