package dev.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.formats.LocalParquetFile;
import dev.sluice.batch.contract.ContractViolationException;
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
import java.util.List;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The drift suite: each way a landed file can differ from its contract, and what the load does.
 * A refused partition writes nothing (Bronze, Silver, Gold and sluice.run stay empty).
 */
class DriftIT {

    @TempDir
    Path home;

    private static final Partition D1 = Partition.daily(LocalDate.parse("2001-07-01"));
    private static final Partition D2 = Partition.daily(LocalDate.parse("2001-07-02"));

    private PipelineSpec pipeline(String format, String drift, String idType, boolean noteRequired) throws Exception {
        return pipeline(format, drift, idType, noteRequired, "");
    }

    /** The readings pipeline; {@code engine} is spec text put after its name (e.g. {@code engine: lakehouse}). */
    private PipelineSpec pipeline(String format, String drift, String idType, boolean noteRequired, String engine) throws Exception {
        Path specFile = TestHome.writePipeline(home, "readings", """
                contract: readings
                version: 1
                drift: %s
                columns:
                  - {name: id, type: %s, nullable: false}
                  - {name: v, type: long}
                  - {name: note, type: string, nullable: %s}
                """.formatted(drift, idType, !noteRequired), """
                pipeline: readings
                %s
                warehouse: {url: "${SLUICE_WAREHOUSE_URL}", user: sa, password: ""}
                sources:
                  - {name: readings, format: %s, path: "${SLUICE_HOME}/landing/readings/dt={partition}", contract: contracts/readings.v1.yaml}
                layers:
                  bronze: [{table: bronze.readings_raw, source: readings}]
                  silver:
                    - table: silver.readings
                      input: bronze.readings_raw
                      key: [id]
                      columns: {id: long, v: long, note: string}
                      sql: SELECT id, v, note FROM {input} r
                  gold:
                    - table: gold.readings_total
                      input: silver.readings
                      key: [total]
                      columns: {total: long}
                      sql: SELECT SUM(v) AS total FROM {input} s
                """.formatted(engine, format));
        return TestHome.load(home, specFile);
    }

    private Path land(Partition p, String name, String content) throws Exception {
        Path dir = Files.createDirectories(home.resolve("landing/readings/dt=" + p.key()));
        return Files.writeString(dir.resolve(name), content);
    }

    private static long count(DSLContext dsl, String table) {
        return dsl.fetchCount(dsl.selectFrom(table));
    }

    private static List<String> drift(DSLContext dsl) {
        return dsl.resultQuery("SELECT change_kind || ' ' || column_name || ' ' || outcome FROM sluice.schema_drift ORDER BY drift_id")
                .fetch(0, String.class);
    }

    @Test
    void anAddedColumnUnderFailIsRefusedAndNothingIsWritten() throws Exception {
        PipelineSpec spec = pipeline("csv", "fail", "long", false);
        land(D1, "r.csv", "v,gate,id,note\n10,A1,1,x\n20,B2,2,y\n");
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            assertThatThrownBy(() -> new PipelineRunner(w, home).run(spec, D1, RunOptions.plain()))
                    .isInstanceOf(ContractViolationException.class)
                    .hasMessage("landing/readings/dt=2001-07-01/r.csv, column 'gate': refused by contract readings.v1:"
                            + " ADDED column 'gate': REFUSED; nothing of the partition was written");
            assertThat(count(w.dsl(), "bronze.readings_raw")).isZero();
            assertThat(count(w.dsl(), "silver.readings")).isZero();
            assertThat(count(w.dsl(), "sluice.run")).isZero();
            assertThat(drift(w.dsl())).containsExactly("ADDED gate REFUSED");
        }
    }

    @Test
    void anAddedColumnUnderIgnoreIsReportedAndNotLoaded() throws Exception {
        PipelineSpec spec = pipeline("csv", "ignore", "long", false);
        land(D1, "r.csv", "v,gate,id,note\n10,A1,1,x\n20,B2,2,y\n");
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            RunSummary s = new PipelineRunner(w, home).run(spec, D1, RunOptions.plain());
            assertThat(s.status().name()).isEqualTo("COMPLETED");
            assertThat(s.silverRows()).isEqualTo(2);
            assertThat(w.dsl().resultQuery("SELECT total FROM gold.readings_total").fetchOne(0, Long.class)).isEqualTo(30L);
            assertThat(w.dsl().meta().getTables("READINGS_RAW").get(0).field("GATE")).isNull();
            assertThat(drift(w.dsl())).containsExactly("ADDED gate IGNORED");
        }
    }

    @Test
    void anAddedColumnUnderEvolveJoinsBronzeAndLaterFilesWithoutItLoadNull() throws Exception {
        PipelineSpec spec = pipeline("csv", "evolve", "long", false);
        land(D1, "r.csv", "v,gate,id,note\n10,A1,1,x\n20,B2,2,y\n");
        land(D2, "r.csv", "id,v,note\n3,30,z\n");
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            PipelineRunner runner = new PipelineRunner(w, home);
            assertThat(runner.run(spec, D1, RunOptions.plain()).status().name()).isEqualTo("COMPLETED");
            assertThat(runner.run(spec, D2, RunOptions.plain()).status().name()).isEqualTo("COMPLETED");
            assertThat(w.dsl().resultQuery("SELECT _partition, id, gate FROM bronze.readings_raw ORDER BY id").fetch()
                    .map(r -> r.get(0) + "/" + r.get(1) + "/" + r.get(2)))
                    .containsExactly("2001-07-01/1/A1", "2001-07-01/2/B2", "2001-07-02/3/null");
            // the later file is judged against the contract plus the evolved column, which it lacks
            assertThat(drift(w.dsl())).containsExactly("ADDED gate EVOLVED", "MISSING gate ACCEPTED");
        }
    }

    @Test
    void anAddedColumnUnderEvolveJoinsTheLakehousesBronzeToo() throws Exception {
        PipelineSpec spec = pipeline("csv", "evolve", "long", false, "engine: lakehouse\nlakehouse: {location: \"${SLUICE_HOME}/lake\"}");
        land(D1, "r.csv", "v,gate,id,note\n10,A1,1,x\n20,B2,2,y\n");
        land(D2, "r.csv", "id,v,note\n3,30,z\n");
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            PipelineRunner runner = new PipelineRunner(w, home);
            assertThat(runner.run(spec, D1, RunOptions.plain()).status().name()).isEqualTo("COMPLETED");
            assertThat(runner.run(spec, D2, RunOptions.plain()).status().name()).isEqualTo("COMPLETED");
            var spark = dev.sluice.spark.SparkSessions.lakehouse(spec.sparkMaster(), new dev.sluice.spark.LakehouseCatalog(
                    spec.warehouse().url(), "sa", "", spec.engine().location()));
            assertThat(spark.sql("SELECT concat_ws('/', _sluice_partition, CAST(id AS STRING), coalesce(gate, 'null'))"
                    + " FROM bronze.readings_raw ORDER BY id").as(org.apache.spark.sql.Encoders.STRING()).collectAsList())
                    .containsExactly("2001-07-01/1/A1", "2001-07-01/2/B2", "2001-07-02/3/null");
            assertThat(spark.sql("SELECT total FROM gold.readings_total WHERE _sluice_partition = '2001-07-02'").first().getLong(0))
                    .isEqualTo(30L);
            assertThat(drift(w.dsl())).containsExactly("ADDED gate EVOLVED", "MISSING gate ACCEPTED");
        }
    }

    @Test
    void aMissingRequiredColumnIsRefusedAMissingNullableOneLoadsNull() throws Exception {
        PipelineSpec spec = pipeline("csv", "fail", "long", true);
        land(D1, "r.csv", "id,v\n1,10\n");
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            assertThatThrownBy(() -> new PipelineRunner(w, home).run(spec, D1, RunOptions.plain()))
                    .isInstanceOf(ContractViolationException.class).hasMessageContaining("MISSING column 'note'");
            assertThat(count(w.dsl(), "bronze.readings_raw")).isZero();
        }
        PipelineSpec lenient = pipeline("csv", "fail", "long", false);
        try (Warehouse w = Warehouse.open(lenient.warehouse())) {
            RunSummary s = new PipelineRunner(w, home).run(lenient, D1, RunOptions.plain());
            assertThat(s.status().name()).isEqualTo("COMPLETED");
            assertThat(w.dsl().resultQuery("SELECT note FROM silver.readings").fetchOne(0)).isNull();
            assertThat(drift(w.dsl())).containsExactly("MISSING note ACCEPTED");
        }
    }

    private void parquet(Partition p, String schema, Object... rows) throws Exception {
        MessageType type = MessageTypeParser.parseMessageType(schema);
        Path dir = Files.createDirectories(home.resolve("landing/readings/dt=" + p.key()));
        SimpleGroupFactory f = new SimpleGroupFactory(type);
        try (ParquetWriter<Group> w = ExampleParquetWriter.builder(new LocalParquetFile(dir.resolve("r.parquet")))
                .withType(type).withWriteMode(org.apache.parquet.hadoop.ParquetFileWriter.Mode.OVERWRITE).build()) {
            for (int i = 0; i < rows.length; i += 3) {
                Group g = f.newGroup();
                if (rows[i] instanceof Integer n) {
                    g.add("id", n);
                } else {
                    g.add("id", (Long) rows[i]);
                }
                g.add("v", (Long) rows[i + 1]);
                g.add("note", (String) rows[i + 2]);
                w.write(g);
            }
        }
    }

    @Test
    void aWidenedParquetTypeLoadsANarrowedOneIsRefused() throws Exception {
        PipelineSpec spec = pipeline("parquet", "fail", "long", false);
        parquet(D1, "message r { required int32 id; optional int64 v; optional binary note (STRING); }", 1, 10L, "a", 2, 20L, "b");
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            RunSummary s = new PipelineRunner(w, home).run(spec, D1, RunOptions.plain());
            assertThat(s.status().name()).isEqualTo("COMPLETED");
            assertThat(w.dsl().resultQuery("SELECT SUM(id) FROM silver.readings").fetchOne(0, Long.class)).isEqualTo(3L);
            assertThat(drift(w.dsl())).containsExactly("WIDENED id ACCEPTED");
        }
        PipelineSpec narrow = pipeline("parquet", "fail", "int", false);
        parquet(D1, "message r { required int64 id; optional int64 v; optional binary note (STRING); }", 1L, 10L, "a");
        try (Warehouse w = Warehouse.open(narrow.warehouse())) {
            assertThatThrownBy(() -> new PipelineRunner(w, home).run(narrow, D1, RunOptions.plain()))
                    .isInstanceOf(ContractViolationException.class)
                    .hasMessageContaining("RETYPED column 'id' (long in the file, int in the contract): REFUSED");
            assertThat(count(w.dsl(), "bronze.readings_raw")).isZero();
        }
    }

    @Test
    void nothingEvolvesInARefusedPartition() throws Exception {
        PipelineSpec spec = pipeline("csv", "evolve", "long", false);
        land(D1, "a.csv", "id,v,note,gate\n1,10,x,A1\n");
        land(D1, "b.csv", "v,note\n20,y\n");
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            assertThatThrownBy(() -> new PipelineRunner(w, home).run(spec, D1, RunOptions.plain()))
                    .isInstanceOf(ContractViolationException.class).hasMessageContaining("MISSING column 'id'");
            assertThat(w.dsl().meta().getTables("READINGS_RAW").get(0).field("GATE")).isNull();
            assertThat(drift(w.dsl())).containsExactly("ADDED gate REFUSED", "MISSING id REFUSED");
        }
        Files.delete(home.resolve("landing/readings/dt=2001-07-01/b.csv"));
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            assertThat(new PipelineRunner(w, home).run(spec, D1, RunOptions.plain()).status().name()).isEqualTo("COMPLETED");
            assertThat(w.dsl().resultQuery("SELECT gate FROM bronze.readings_raw").fetchOne(0, String.class)).isEqualTo("A1");
        }
    }

    @Test
    void aHeaderNameLongerThanTheDriftTableHoldsIsRecordedCutAndTheLoadIsRefusedOrRuns() throws Exception {
        // before #21 the run exited 70 on schema_drift.column_name VARCHAR(200) where contract check refused the file (exit 2)
        String longName = "g".repeat(300);
        PipelineSpec spec = pipeline("csv", "fail", "long", false);
        land(D1, "r.csv", "id,v,note," + longName + "\n1,10,x,A1\n");
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            assertThatThrownBy(() -> new PipelineRunner(w, home).run(spec, D1, RunOptions.plain()))
                    .isInstanceOf(ContractViolationException.class)
                    .hasMessage("landing/readings/dt=2001-07-01/r.csv, column '" + "g".repeat(182) + "… (300 characters)': refused by"
                            + " contract readings.v1: ADDED column '" + "g".repeat(102) + "… (300 characters)': REFUSED; nothing of"
                            + " the partition was written");
            assertThat(drift(w.dsl())).containsExactly("ADDED " + "g".repeat(182) + "… (300 characters) REFUSED");
        }
        PipelineSpec ignore = pipeline("csv", "ignore", "long", false);
        try (Warehouse w = Warehouse.open(ignore.warehouse())) {
            assertThat(new PipelineRunner(w, home).run(ignore, D1, RunOptions.plain()).status().name()).isEqualTo("COMPLETED");
            assertThat(drift(w.dsl())).containsExactly("ADDED " + "g".repeat(182) + "… (300 characters) IGNORED");
        }
    }

    @Test
    void aJsonKeyThatAppearsOnlyInALaterRecordFollowsTheDriftPolicy() throws Exception {
        // before #21 a JSON file was judged by its first record: 'gate' was dropped under drift: fail (exit 0, no drift row)
        String records = "{\"id\": 1, \"v\": 10, \"note\": \"x\"}\n{\"id\": 2, \"v\": 20, \"note\": \"y\"}\n"
                + "not json, quarantined as a row: {\"ghost\": 1}\n{\"id\": 3, \"v\": 30, \"note\": \"z\", \"gate\": \"B2\"}\n";
        for (String format : List.of("ndjson", "json")) {
            PipelineSpec spec = pipeline(format, "fail", "long", false);
            Partition p = format.equals("ndjson") ? D1 : D2;
            land(p, "r." + format, format.equals("ndjson") ? records
                    : "[" + String.join(",", records.lines().filter(l -> l.startsWith("{")).toList()) + "]");
            try (Warehouse w = Warehouse.open(spec.warehouse())) {
                assertThatThrownBy(() -> new PipelineRunner(w, home).run(spec, p, RunOptions.plain()))
                        .isInstanceOf(ContractViolationException.class)
                        .hasMessage("landing/readings/dt=" + p.key() + "/r." + format + ", column 'gate': refused by contract"
                                + " readings.v1: ADDED column 'gate': REFUSED; nothing of the partition was written");
                assertThat(count(w.dsl(), "bronze.readings_raw")).isZero();
                assertThat(drift(w.dsl())).containsExactly("ADDED gate REFUSED");
            }
        }
        PipelineSpec evolve = pipeline("ndjson", "evolve", "long", false);
        try (Warehouse w = Warehouse.open(evolve.warehouse())) {
            RunSummary s = new PipelineRunner(w, home).run(evolve, D1, RunOptions.plain());
            assertThat(s.status().name()).isEqualTo("COMPLETED");
            assertThat(s.quarantined()).as("the line that is not JSON").isEqualTo(1);
            assertThat(w.dsl().resultQuery("SELECT id, gate FROM bronze.readings_raw WHERE id IS NOT NULL ORDER BY id").fetch()
                    .map(r -> r.get(0) + "/" + r.get(1))).containsExactly("1/null", "2/null", "3/B2");
            assertThat(drift(w.dsl())).containsExactly("ADDED gate EVOLVED");
        }
    }

    @Test
    void aParquetDecimalLoadsExactlyIntoADecimalColumnAndIsRefusedForADouble() throws Exception {
        // before #21 a Parquet DECIMAL column was refused whatever the contract said
        MessageType type = MessageTypeParser.parseMessageType(
                "message r { required int64 id; optional fixed_len_byte_array(9) amount (DECIMAL(20,4)); }");
        Path dir = Files.createDirectories(home.resolve("landing/ledger/dt=" + D1.key()));
        SimpleGroupFactory f = new SimpleGroupFactory(type);
        try (ParquetWriter<Group> w = ExampleParquetWriter.builder(new LocalParquetFile(dir.resolve("l.parquet"))).withType(type).build()) {
            for (String v : List.of("12345678901234.5600", "-0.0100", "1.2345")) {
                java.math.BigInteger unscaled = new java.math.BigDecimal(v).unscaledValue();
                byte[] raw = unscaled.toByteArray();
                byte[] fixed = new byte[9];
                java.util.Arrays.fill(fixed, unscaled.signum() < 0 ? (byte) 0xFF : 0);
                System.arraycopy(raw, 0, fixed, 9 - raw.length, raw.length);
                w.write(f.newGroup().append("id", (long) v.length()).append("amount",
                        org.apache.parquet.io.api.Binary.fromConstantByteArray(fixed)));
            }
        }
        for (String amountType : List.of("'decimal(16,2)'", "double")) {
            Path specFile = TestHome.writePipeline(home, "ledger", """
                    contract: ledger
                    version: 1
                    columns:
                      - {name: id, type: long, nullable: false}
                      - {name: amount, type: %s}
                    """.formatted(amountType), """
                    pipeline: ledger
                    warehouse: {url: "${SLUICE_WAREHOUSE_URL}", user: sa, password: ""}
                    sources:
                      - {name: ledger, format: parquet, path: "${SLUICE_HOME}/landing/ledger/dt={partition}", contract: contracts/ledger.v1.yaml}
                    layers:
                      bronze: [{table: bronze.ledger_raw, source: ledger}]
                      silver:
                        - table: silver.ledger
                          input: bronze.ledger_raw
                          key: [id]
                          columns: {id: long, amount: %s}
                          sql: SELECT id, amount FROM {input} l
                      gold:
                        - table: gold.ledger_total
                          input: silver.ledger
                          key: [n]
                          columns: {n: long}
                          sql: SELECT COUNT(*) AS n FROM {input} s
                    """.formatted(amountType));
            PipelineSpec spec = TestHome.load(home, specFile);
            try (Warehouse w = Warehouse.open(spec.warehouse())) {
                if (amountType.equals("double")) {
                    assertThatThrownBy(() -> new PipelineRunner(w, home).run(spec, D1, RunOptions.plain()))
                            .isInstanceOf(ContractViolationException.class)
                            .hasMessageContaining("RETYPED column 'amount' (decimal(20,4) in the file, double in the contract): REFUSED");
                    assertThat(count(w.dsl(), "bronze.ledger_raw")).isZero();
                    continue;
                }
                RunSummary s = new PipelineRunner(w, home).run(spec, D1, RunOptions.plain());
                assertThat(s.status().name()).isEqualTo("COMPLETED");
                assertThat(drift(w.dsl())).containsExactly("NARROWED amount ACCEPTED");
                assertThat(w.dsl().resultQuery("SELECT amount FROM silver.ledger ORDER BY id").fetch(0, java.math.BigDecimal.class))
                        .containsExactly(new java.math.BigDecimal("-0.01"), new java.math.BigDecimal("12345678901234.56"));
                assertThat(w.dsl().resultQuery("SELECT reason FROM sluice.quarantine").fetch(0, String.class)).singleElement()
                        .asString().contains("1.2345 does not fit decimal(16,2): 4 digits after the point, decimal(16,2) keeps 2"
                                + " (it would be rounded)");
            }
        }
    }
}
