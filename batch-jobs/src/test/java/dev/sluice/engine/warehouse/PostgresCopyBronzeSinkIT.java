package dev.sluice.engine.warehouse;


import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.engine.BronzeColumns;
import dev.sluice.engine.BronzeRow;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.ColumnSpec;
import dev.sluice.config.ColumnType;
import dev.sluice.config.DecimalSpec;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.core.DatasetRef;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import dev.sluice.warehouse.Warehouse;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jooq.Record;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bronze's PostgreSQL bulk path on a real server: every contract type, NULLs and edge values
 * written with binary COPY read back exactly as given, and the same rows through the CSV form
 * when a column's type no longer has the contract type's binary form; decimals of every shape
 * (binary {@code numeric}); and one decimal CSV loaded on H2 and PostgreSQL to the same Bronze
 * rows, row hashes and Silver/Gold checksums.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PostgresCopyBronzeSinkIT {

    private static final List<ColumnSpec> CONTRACT = List.of(
            new ColumnSpec("s", ColumnType.STRING, true), new ColumnSpec("i", ColumnType.INT, true),
            new ColumnSpec("l", ColumnType.LONG, true), new ColumnSpec("f", ColumnType.FLOAT, true),
            new ColumnSpec("d", ColumnType.DOUBLE, true), new ColumnSpec("b", ColumnType.BOOLEAN, true),
            new ColumnSpec("dt", ColumnType.DATE, true), new ColumnSpec("ts", ColumnType.TIMESTAMP, true));
    private static final OffsetDateTime INGESTED = OffsetDateTime.of(2026, 11, 30, 21, 30, 0, 123_456_000, ZoneOffset.ofHours(2));
    private static final RunId RUN = RunId.parse("01a22e51-60aa-71c8-b242-eb48b849753c");

    @TempDir
    static Path home;

    private EmbeddedPostgres pg;
    private Warehouse warehouse;

    @BeforeAll
    void start() throws Exception {
        pg = EmbeddedPostgres.builder().start();
        Path specFile = TestHome.writePipeline(home, "types", """
                contract: types
                version: 1
                columns:
                  - {name: s, type: string}
                  - {name: i, type: int}
                  - {name: l, type: long}
                  - {name: f, type: float}
                  - {name: d, type: double}
                  - {name: b, type: boolean}
                  - {name: dt, type: date}
                  - {name: ts, type: timestamp}
                """, """
                pipeline: types
                warehouse: {url: "${SLUICE_WAREHOUSE_URL}", user: "${SLUICE_WAREHOUSE_USER}", password: ""}
                partitioning: {kind: daily}
                sources:
                  - {name: types, format: csv, path: "${SLUICE_HOME}/landing/types/dt={partition}", contract: contracts/types.v1.yaml}
                layers:
                  bronze:
                    - {table: bronze.types_raw, source: types}
                    - {table: bronze.types_text_raw, source: types}
                  silver:
                    - table: silver.types
                      input: bronze.types_raw
                      key: [s]
                      columns: {s: string}
                      sql: SELECT s FROM {input} t
                  gold:
                    - table: gold.type_count
                      input: silver.types
                      key: [n]
                      columns: {n: long}
                      sql: SELECT COUNT(*) AS n FROM {input} s
                """);
        PipelineSpec spec = new PipelineSpecLoader(TestHome.environment(home, pg.getJdbcUrl("postgres", "postgres"), "postgres", "")
                .interpolator()).load(specFile);
        warehouse = Warehouse.open(spec.warehouse());
        LayerTables.create(warehouse.dsl(), spec);
        // a column whose type changed since the table was created: no binary form for a FLOAT value
        warehouse.dsl().execute("ALTER TABLE bronze.types_text_raw ALTER COLUMN f TYPE numeric");
    }

    private static final List<ColumnSpec> DECIMALS = List.of(
            ColumnSpec.decimal("amount", new DecimalSpec(38, 10), true), ColumnSpec.decimal("cents", new DecimalSpec(5, 2), true),
            ColumnSpec.decimal("whole", new DecimalSpec(18, 0), true));

    private PipelineSpec decimalsSpec(String url, String user) {
        Path specFile = TestHome.writePipeline(home, "decimals", """
                contract: decimals
                version: 1
                columns:
                  - {name: id, type: long, nullable: false}
                  - {name: amount, type: 'decimal(38,10)'}
                  - {name: cents, type: 'decimal(5,2)'}
                  - {name: whole, type: 'decimal(18,0)'}
                """, """
                pipeline: decimals
                warehouse: {url: "%s", user: "%s", password: ""}
                sources:
                  - {name: decimals, format: csv, path: "${SLUICE_HOME}/landing/decimals/dt={partition}", contract: contracts/decimals.v1.yaml}
                layers:
                  bronze:
                    - {table: bronze.decimals_raw, source: decimals}
                    - {table: bronze.decimals_text_raw, source: decimals}
                  silver:
                    - table: silver.decimals
                      input: bronze.decimals_raw
                      key: [id]
                      columns: {id: long, amount: 'decimal(38,10)', cents: 'decimal(5,2)'}
                      sql: SELECT id, amount, cents FROM {input} d
                  gold:
                    - table: gold.decimal_total
                      input: silver.decimals
                      key: [n]
                      columns: {n: long, total: 'decimal(38,2)', biggest: 'decimal(38,10)'}
                      sql: SELECT COUNT(*) AS n, SUM(cents) AS total, MAX(amount) AS biggest FROM {input} s
                """.formatted(url, user));
        return new PipelineSpecLoader(TestHome.environment(home, url, user, "").interpolator()).load(specFile);
    }

    /** Edge values of numeric's base-10000 form: zero at a scale, signs, both ends of the precision, trailing zeros, group borders. */
    private static List<BronzeRow> decimalRows() {
        String[][] values = {
                {"0E-10", "0.00", "0"},
                {"1.0000000000", "0.01", "-1"},
                {"-0.0000000001", "-0.10", "10000"},
                {"9999999999999999999999999999.9999999999", "999.99", "999999999999999999"},
                {"-9999999999999999999999999999.9999999999", "-999.99", "-123456789012345678"},
                {"12345678.9000000000", "100.00", "100000000"},
                {"10000.0000000000", "1.50", "9999"},
                {"0.0001000000", "-0.01", "-10000"},
                {"-123456789012345678901234567.8901234567", "12.34", "1"}};
        List<BronzeRow> rows = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            Object[] v = {new java.math.BigDecimal(values[i][0]), new java.math.BigDecimal(values[i][1]), new java.math.BigDecimal(values[i][2])};
            rows.add(new BronzeRow(v, "landing/decimals/d.csv", i, "%064x".formatted(i), null, null));
        }
        rows.add(new BronzeRow(new Object[] {null, null, null}, "landing/decimals/d.csv", values.length, "0".repeat(64), null, null));
        return rows;
    }

    @Test
    void decimalsOfEveryShapeRoundTripExactlyInBinaryAndInCsv() {
        PipelineSpec spec = decimalsSpec(pg.getJdbcUrl("postgres", "postgres"), "postgres");
        LayerTables.create(warehouse.dsl(), spec);
        // a column whose type no longer is numeric: the whole COPY falls back to CSV
        warehouse.dsl().execute("ALTER TABLE bronze.decimals_text_raw ALTER COLUMN whole TYPE int8");
        for (String table : List.of("bronze.decimals_raw", "bronze.decimals_text_raw")) {
            PostgresCopyBronzeSink sink = new PostgresCopyBronzeSink(warehouse.dataSource(), BronzeColumns.of(DatasetRef.parse(table),
                    DECIMALS, new Partition("2024-02-01"), RUN, INGESTED));
            sink.append(decimalRows());
            assertThat(sink.binary()).isEqualTo(table.equals("bronze.decimals_raw"));
            List<Record> got = warehouse.dsl().fetch("SELECT amount, cents, whole FROM " + table
                    + " WHERE _partition = '2024-02-01' ORDER BY _source_pos");
            List<BronzeRow> want = decimalRows();
            assertThat(got).hasSize(want.size());
            for (int r = 0; r < want.size(); r++) {
                Object[] v = want.get(r).values();
                // exact: the same digits and the column's scale (BigDecimal.equals compares both)
                assertThat(got.get(r).get("amount", java.math.BigDecimal.class)).as("%s row %d amount", table, r).isEqualTo(v[0]);
                assertThat(got.get(r).get("cents", java.math.BigDecimal.class)).as("%s row %d cents", table, r).isEqualTo(v[1]);
                java.math.BigDecimal whole = got.get(r).get("whole", java.math.BigDecimal.class);
                if (v[2] == null) {
                    assertThat(whole).isNull();
                } else {
                    assertThat(whole).as("%s row %d whole", table, r).isEqualByComparingTo((java.math.BigDecimal) v[2]);
                }
            }
        }
    }

    @Test
    void oneDecimalFileLoadsToTheSameRowsHashesAndChecksumsOnH2AndPostgresql() throws Exception {
        Path dir = java.nio.file.Files.createDirectories(home.resolve("landing/decimals/dt=2024-03-01"));
        java.nio.file.Files.writeString(dir.resolve("d.csv"), """
                id,amount,cents,whole
                1,0.1,1.5,7
                2,-12345678901234567890.0123456789,-999.99,999999999999999999
                3,1.50000,0.125,1
                4,1e-3,100,-0
                5,,,
                """);
        Partition day = Partition.daily(LocalDate.parse("2024-03-01"));
        List<List<String>> bronze = new ArrayList<>();
        List<String> checksums = new ArrayList<>();
        for (String[] target : List.of(new String[] {pg.getJdbcUrl("postgres", "postgres"), "postgres"},
                new String[] {TestHome.freshH2Url(), "sa"})) {
            PipelineSpec spec = decimalsSpec(target[0], target[1]);
            try (Warehouse w = Warehouse.open(spec.warehouse())) {
                var summary = new dev.sluice.batch.job.PipelineRunner(w, home).run(spec, day, dev.sluice.batch.job.RunOptions.plain());
                assertThat(summary.status().name()).isEqualTo("COMPLETED");
                assertThat(summary.quarantined()).as("0.125 does not fit decimal(5,2)").isEqualTo(1);
                bronze.add(w.dsl().fetch("SELECT _source_pos, _row_hash, amount, cents, whole FROM bronze.decimals_raw"
                        + " WHERE _partition = '2024-03-01' ORDER BY _source_pos").map(r -> r.intoList().toString()));
                for (dev.sluice.config.TableSpec t : spec.tables()) {
                    if (t.layer() != dev.sluice.core.Layer.BRONZE) {
                        checksums.add(t.table() + " " + dev.sluice.engine.warehouse.TableChecksum.of(w.dsl(), t, day));
                    }
                }
                assertThat(w.dsl().fetchValue("SELECT total FROM gold.decimal_total WHERE _partition = '2024-03-01'"))
                        .isEqualTo(new java.math.BigDecimal("-898.49"));
            }
        }
        assertThat(bronze.get(1)).isEqualTo(bronze.get(0));
        assertThat(bronze.get(0).get(1)).contains("-12345678901234567890.0123456789", "-999.99", "999999999999999999");
        assertThat(checksums.subList(2, 4)).isEqualTo(checksums.subList(0, 2));
    }

    @AfterAll
    void stop() throws Exception {
        warehouse.close();
        pg.close();
    }

    private static List<BronzeRow> rows() {
        List<BronzeRow> rows = new ArrayList<>();
        rows.add(row(0, new Object[] {"ORD", 42, 9_000_000_000L, 1.5f, -2.25, true, LocalDate.of(2001, 1, 1),
                LocalDateTime.of(2001, 1, 1, 6, 5, 0)}, null));
        rows.add(row(1, new Object[] {"", Integer.MIN_VALUE, Long.MIN_VALUE, Float.MAX_VALUE, Double.MIN_VALUE, false,
                LocalDate.of(1969, 12, 31), LocalDateTime.of(1899, 12, 31, 23, 59, 59, 999_999_000)}, null));
        rows.add(row(2, new Object[] {"Zürich \"quoted\", comma\nnewline ✈", Integer.MAX_VALUE, Long.MAX_VALUE, -0.0f, 1e300, null,
                LocalDate.of(2000, 1, 1), LocalDateTime.of(2000, 1, 1, 0, 0, 0, 1_500)}, null));
        rows.add(row(3, new Object[] {null, null, null, null, null, null, null, null},
                "[{\"column\":\"i\",\"raw\":\"x\",\"reason\":\"not an integer\"}]"));
        return rows;
    }

    private static BronzeRow row(long pos, Object[] values, String parseErrors) {
        return new BronzeRow(values, "landing/types/dt=2024-01-01/types.csv", pos, "%064x".formatted(pos * 2_654_435_761L), parseErrors, null);
    }

    private PostgresCopyBronzeSink sink(String table) {
        return new PostgresCopyBronzeSink(warehouse.dataSource(),
                BronzeColumns.of(DatasetRef.parse(table), CONTRACT, new Partition("2024-01-01"), RUN, INGESTED));
    }

    @Test
    void binaryCopyWritesEveryTypeAndNullExactly() {
        PostgresCopyBronzeSink sink = sink("bronze.types_raw");
        sink.append(rows());
        assertThat(sink.binary()).isTrue();
        assertReadBack("bronze.types_raw", false);
    }

    @Test
    void aColumnWithoutTheContractTypesBinaryFormIsWrittenAsCsv() {
        PostgresCopyBronzeSink sink = sink("bronze.types_text_raw");
        sink.append(rows());
        assertThat(sink.binary()).isFalse();
        assertReadBack("bronze.types_text_raw", true);
    }

    @Test
    void aTimestampOutsidePostgresqlsRangeFailsTheChunkNamingFileRowAndColumnInsteadOfWrapping() {
        // Long.MAX_VALUE ms ("no end date") overflowed a long of microseconds and was stored as 1969-12-31
        LocalDateTime noEnd = LocalDateTime.ofEpochSecond(Long.MAX_VALUE / 1000, 0, ZoneOffset.UTC);
        for (Object[] bad : List.of(
                new Object[] {"x", 1, 1L, 1f, 1d, true, LocalDate.of(2001, 1, 1), noEnd},
                new Object[] {"x", 1, 1L, 1f, 1d, true, LocalDate.of(2001, 1, 1), LocalDateTime.of(300_000, 1, 1, 0, 0)},
                new Object[] {"x", 1, 1L, 1f, 1d, true, LocalDate.of(-5000, 1, 1), LocalDateTime.of(2001, 1, 1, 0, 0)})) {
            PostgresCopyBronzeSink sink = sink("bronze.types_raw");
            List<BronzeRow> rows = new ArrayList<>(rows());
            rows.add(row(4, bad, null));
            assertThatThrownBy(() -> sink.append(rows)).isInstanceOf(dev.sluice.core.SluiceException.class)
                    .hasMessageStartingWith("landing/types/dt=2024-01-01/types.csv, row 5, column " + (bad[6] instanceof LocalDate d
                            && d.getYear() < 0 ? "dt" : "ts"))
                    .hasMessageContaining("outside PostgreSQL's");
        }
        // each failed chunk rolled back whole: no row of it landed
        assertThat(((Number) warehouse.dsl().fetchValue("SELECT COUNT(*) FROM bronze.types_raw WHERE _source_pos = 4")).longValue()).isZero();
    }

    @Test
    void theCsvFormKeepsACharacterOutsideTheBmpThatStraddlesThe64KiCharBoundary() {
        // the driver's Reader form encoded 65,536-char pieces apart: an emoji whose surrogate pair straddles chars
        // 65,535/65,536 of the CSV (after the opening quote) became "??"
        String text = "a".repeat(65_534) + "\uD83D\uDE80end";
        PostgresCopyBronzeSink sink = new PostgresCopyBronzeSink(warehouse.dataSource(),
                BronzeColumns.of(DatasetRef.parse("bronze.types_text_raw"), CONTRACT, new Partition("2024-01-02"), RUN, INGESTED));
        sink.append(List.of(new BronzeRow(new Object[] {text, null, null, null, null, null, null, null}, "f.csv", 0,
                "0".repeat(64), null, null)));
        assertThat(sink.binary()).isFalse();
        assertThat(warehouse.dsl().fetchValue("SELECT s FROM bronze.types_text_raw WHERE _partition = '2024-01-02'")).isEqualTo(text);
    }

    private void assertReadBack(String table, boolean numericF) {
        List<Record> got = warehouse.dsl().fetch("SELECT s, i, l, f, d, b, dt, ts, _partition, _run_id, _source, _source_pos,"
                + " _ingested_at, _row_hash, _parse_errors FROM " + table + " WHERE _partition = '2024-01-01' ORDER BY _source_pos");
        assertThat(got).hasSize(4);
        List<BronzeRow> want = rows();
        for (int r = 0; r < 4; r++) {
            Record g = got.get(r);
            BronzeRow w = want.get(r);
            Object[] v = w.values();
            assertThat(g.get("s", String.class)).as("row %d s", r).isEqualTo(v[0]);
            assertThat(g.get("i", Integer.class)).as("row %d i", r).isEqualTo(v[1]);
            assertThat(g.get("l", Long.class)).as("row %d l", r).isEqualTo(v[2]);
            if (numericF && v[3] != null) {
                // numeric keeps the text of the float's shortest decimal form
                assertThat(g.get("f", java.math.BigDecimal.class)).as("row %d f", r).isEqualByComparingTo(new java.math.BigDecimal(v[3].toString()));
            } else {
                assertThat(g.get("f", Float.class)).as("row %d f", r).isEqualTo(v[3]);
            }
            assertThat(g.get("d", Double.class)).as("row %d d", r).isEqualTo(v[4]);
            assertThat(g.get("b", Boolean.class)).as("row %d b", r).isEqualTo(v[5]);
            assertThat(g.get("dt", LocalDate.class)).as("row %d dt", r).isEqualTo(v[6]);
            LocalDateTime ts = (LocalDateTime) v[7];
            // microsecond precision: 1,500 ns is stored as 2 µs (half up)
            assertThat(g.get("ts", LocalDateTime.class)).as("row %d ts", r)
                    .isEqualTo(ts == null ? null : ts.getNano() == 1_500 ? ts.withNano(2_000) : ts);
            assertThat(g.get("_partition", String.class)).isEqualTo("2024-01-01");
            assertThat(g.get("_run_id", String.class)).isEqualTo(RUN.toString());
            assertThat(g.get("_source", String.class)).isEqualTo(w.source());
            assertThat(g.get("_source_pos", Long.class)).isEqualTo(w.position());
            assertThat(g.get("_ingested_at", OffsetDateTime.class).toInstant()).isEqualTo(INGESTED.toInstant());
            assertThat(g.get("_row_hash", String.class)).isEqualTo(w.rowHash());
            assertThat(g.get("_parse_errors", String.class)).isEqualTo(w.parseErrors());
        }
        assertThat(Arrays.asList(want.get(3).values())).containsOnlyNulls();
    }
}
