package dev.sluice.app.schedule;

import dev.sluice.batch.testkit.TestHome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A tiny scheduled pipeline for scheduler tests: a three-row CSV reference read into Bronze,
 * Silver and Gold (all snapshots), so that a run takes well under a second and its partition (a
 * day, an hour, a fire) is what the scheduler decided.
 */
final class TicksPipeline {

    private TicksPipeline() {
    }

    /**
     * Writes {@code home/spec/ticks.yaml}, its contract and {@code home/landing/ticks/ticks.csv}.
     *
     * @param schedule the {@code schedule:} map body, e.g. {@code cron: "0/2 * * * * ?", time_zone: UTC}
     * @param tier the availability tier, or 0 for none
     * @return the spec file
     */
    static Path write(Path home, String kind, String schedule, int tier) {
        try {
            Path landing = Files.createDirectories(home.resolve("landing/ticks"));
            Files.writeString(landing.resolve("ticks.csv"), "code,weight\na,1\nb,2\nc,3\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String contract = "contract: ticks\nversion: 1\ncolumns:\n  - {name: code, type: string, nullable: false}\n"
                + "  - {name: weight, type: long}\n";
        String yaml = """
                pipeline: ticks
                warehouse:
                  url: ${SLUICE_WAREHOUSE_URL}
                  user: ${SLUICE_WAREHOUSE_USER:-sa}
                  password: ${SLUICE_WAREHOUSE_PASSWORD:-}
                partitioning: {kind: %s}
                schedule: {%s}
                %s
                backfill_window: P10000D
                design_exemptions:
                  - {rule: gates.source, reason: "a scheduler test pipeline: its runs must not wait for Spark"}
                  - {rule: gates.transform, reason: "a scheduler test pipeline: its runs must not wait for Spark"}
                  - {rule: gates.sink, reason: "a scheduler test pipeline: its runs must not wait for Spark"}
                sources:
                  - {name: ticks, format: csv, path: "${SLUICE_HOME}/landing/ticks/ticks.csv", partitioned: false, contract: contracts/ticks.v1.yaml}
                layers:
                  bronze: [{table: bronze.ticks_raw, source: ticks, write: append, retention: P10000D}]
                  silver:
                    - table: silver.ticks
                      input: bronze.ticks_raw
                      partition: none
                      write: overwrite-partition
                      key: [code]
                      columns: {code: string, weight: long}
                      sql: SELECT code, weight FROM {input} t
                  gold:
                    - table: gold.tick_weight
                      input: silver.ticks
                      partition: none
                      write: overwrite-partition
                      key: [codes]
                      columns: {codes: long, weight: long}
                      sql: SELECT COUNT(*) AS codes, SUM(weight) AS weight FROM {input} s
                """.formatted(kind, schedule, tier == 0 ? "" : "tier: " + tier);
        return TestHome.writePipeline(home, "ticks", contract, yaml);
    }
}
