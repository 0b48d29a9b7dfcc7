package dev.sluice.batch.testkit;

import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * A small daily pipeline for tests of {@code write: merge-on-key}: CSV prices (code, price) under
 * {@code landing/prices/dt=<day>}, Silver {@code silver.prices} merged by {@code code}, Gold
 * {@code gold.price_total} (codes, total) overwritten per partition.
 */
public final class PricesPipeline {

    private static final String CONTRACT = "contract: prices\nversion: 1\ncolumns:\n"
            + "  - {name: code, type: string, nullable: false}\n  - {name: price, type: long, nullable: false}\n";

    private static final String SPEC = """
            pipeline: prices
            %swarehouse: {url: "${SLUICE_WAREHOUSE_URL}", user: sa, password: ""}
            sources:
              - {name: prices, format: csv, path: "${SLUICE_HOME}/landing/prices/dt={partition}", contract: contracts/prices.v1.yaml}
            layers:
              bronze: [{table: bronze.prices_raw, source: prices}]
              silver:
                - table: silver.prices
                  input: bronze.prices_raw
                  partition: daily
                  write: merge-on-key
                  key: [code]
                  columns: {code: string, price: long}
                  sql: SELECT code, price FROM {input} p
              gold:
                - table: gold.price_total
                  input: silver.prices
                  partition: daily
                  write: overwrite-partition
                  key: [codes]
                  columns: {codes: long, total: long}
                  sql: SELECT COUNT(*) AS codes, SUM(price) AS total FROM {input} s
            """;

    private PricesPipeline() {
    }

    /**
     * Writes the pipeline on the warehouse engine with {@code silver.prices} a snapshot
     * ({@code partition: none}, still merged by {@code code}) that every day's prices accumulate into,
     * gated by a row count and {@code price} within [0, {@code maxPrice}]; returns the spec file.
     */
    public static Path accumulatingOnWarehouse(Path home, long maxPrice) {
        return accumulating(home, "", maxPrice);
    }

    /** {@link #accumulatingOnWarehouse} on the lakehouse engine, its data files under {@code lakehouse}. */
    public static Path accumulatingOnLakehouse(Path home, Path lakehouse, long maxPrice) {
        return accumulating(home, "engine: lakehouse\nlakehouse: {location: \"" + lakehouse.toAbsolutePath() + "\"}\n", maxPrice);
    }

    private static Path accumulating(Path home, String engine, long maxPrice) {
        String daily = "      partition: daily\n      write: merge-on-key\n";
        String sql = "      sql: SELECT code, price FROM {input} p\n";
        String spec = SPEC.formatted(engine).replace(daily, "      partition: none\n      write: merge-on-key\n").replace(sql, sql
                + "      checks:\n        - {id: rows, expect: expect_table_row_count_to_be_between, min_value: 1}\n"
                + "        - {id: price_plausible, expect: expect_column_values_to_be_between, column: price, min_value: 0, max_value: "
                + maxPrice + "}\n");
        if (!spec.contains("partition: none") || !spec.contains("price_plausible")) {
            throw new IllegalStateException("the prices spec changed shape: " + spec);
        }
        return TestHome.writePipeline(home, "prices", CONTRACT, spec);
    }

    /**
     * Writes the pipeline on the warehouse engine with Gold {@code gold.latest_prices} instead of
     * {@code gold.price_total}: a snapshot ({@code partition: none}) merged by {@code code} from the
     * daily {@code silver.prices}; returns the spec file.
     */
    public static Path mergedFromDailySilverOnWarehouse(Path home) {
        return latestFromDailySilver(home, "", "merge-on-key", "");
    }

    /**
     * Writes the pipeline with Gold {@code gold.latest_prices} instead of {@code gold.price_total}: a
     * snapshot ({@code partition: none}) written {@code overwrite-partition} from the daily
     * {@code silver.prices} (each day a full extract of the prices), {@code versions.keep} {@code keep},
     * on the warehouse engine, or on the lakehouse when {@code lakehouse} is not null; with a check
     * {@code price} within [0, {@code maxPrice}]; returns the spec file.
     */
    public static Path extractFromDailySilver(Path home, @Nullable Path lakehouse, int keep, long maxPrice) {
        String engine = lakehouse == null ? "" : "engine: lakehouse\nlakehouse: {location: \"" + lakehouse.toAbsolutePath() + "\"}\n";
        return latestFromDailySilver(home, engine + "versions: {keep: " + keep + "}\n", "overwrite-partition",
                "      checks:\n        - {id: price_plausible, expect: expect_column_values_to_be_between, column: price, min_value: 0,"
                        + " max_value: " + maxPrice + "}\n");
    }

    private static Path latestFromDailySilver(Path home, String settings, String write, String checks) {
        String total = SPEC.substring(SPEC.indexOf("    - table: gold.price_total"));
        String latest = total.replace("gold.price_total", "gold.latest_prices").replace("partition: daily", "partition: none")
                .replace("write: overwrite-partition", "write: " + write).replace("key: [codes]", "key: [code]")
                .replace("columns: {codes: long, total: long}", "columns: {code: string, price: long}")
                .replace("sql: SELECT COUNT(*) AS codes, SUM(price) AS total FROM {input} s\n", "sql: SELECT code, price FROM {input} s\n"
                        + checks);
        if (!latest.contains(write) || !latest.contains("SELECT code, price")) {
            throw new IllegalStateException("the prices spec changed shape: " + total);
        }
        return TestHome.writePipeline(home, "prices", CONTRACT, SPEC.replace(total, latest).formatted(settings));
    }

    /** Writes the pipeline on the warehouse engine under {@code home/spec}; returns the spec file. */
    public static Path onWarehouse(Path home) {
        return TestHome.writePipeline(home, "prices", CONTRACT, SPEC.formatted(""));
    }

    /**
     * Writes the pipeline on the lakehouse engine, its data files under {@code lakehouse}, Silver's
     * SQL {@code silverSql} ({@code {input}} the Bronze rows); returns the spec file.
     */
    public static Path onLakehouse(Path home, Path lakehouse, String silverSql) {
        return TestHome.writePipeline(home, "prices", CONTRACT,
                SPEC.replace("sql: SELECT code, price FROM {input} p", "sql: " + silverSql)
                        .formatted("engine: lakehouse\nlakehouse: {location: \"" + lakehouse.toAbsolutePath() + "\"}\n"));
    }

    /** Writes the pipeline on the lakehouse engine, its data files under {@code lakehouse}; returns the spec file. */
    public static Path onLakehouse(Path home, Path lakehouse) {
        return TestHome.writePipeline(home, "prices", CONTRACT,
                SPEC.formatted("engine: lakehouse\nlakehouse: {location: \"" + lakehouse.toAbsolutePath() + "\"}\n"));
    }
}
