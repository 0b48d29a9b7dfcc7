package dev.sluice.batch.bronze;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.batch.testkit.TestHome;
import dev.sluice.batch.warehouse.LayerTables;
import dev.sluice.config.ColumnSpec;
import dev.sluice.config.ColumnType;
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
 * when a column's type no longer has the contract type's binary form.
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
