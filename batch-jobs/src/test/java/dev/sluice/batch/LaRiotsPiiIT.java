package dev.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.batch.job.RunSummary;
import dev.sluice.batch.testkit.PiiTestKey;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.engine.warehouse.LayerTables;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.Layer;
import dev.sluice.core.Partition;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.Test;

/**
 * The {@code la_riots} pipeline of the project on the real {@code la-riots.csv}: every partition
 * (death date) loaded, names turned into keyed HMAC tokens equal to {@code javax.crypto.Mac}'s,
 * addresses masked to their shape, coordinates dropped, and not one raw PII value in any column of
 * any Silver or Gold table (published views and every kept version), on H2 and PostgreSQL.
 */
class LaRiotsPiiIT {

    static final String KEY = PiiTestKey.KEY;
    static final List<String> PII_COLUMNS = List.of("first_name", "last_name", "address", "longitude", "latitude");

    static List<CSVRecord> rawRows() throws Exception {
        try (Reader r = Files.newBufferedReader(TestHome.withSampleData().resolve("landing/la_riots/la-riots.csv"))) {
            return CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).get().parse(r).getRecords();
        }
    }

    static String hmac(String value) throws Exception {
        return PiiTestKey.hmac(value);
    }

    static String shape(String value) {
        return value.replaceAll("[0-9]", "9").replaceAll("[^9 .,;:&/#()'-]", "x");
    }

    static PipelineSpec spec(String url, String user, String password) {
        return TestHome.projectSpec("la_riots", url, user, password, Map.of("SLUICE_PII_KEY_V1", KEY));
    }

    @Test
    void onH2NoRawPersonalDataReachesSilverOrGold() throws Exception {
        check(spec(TestHome.freshH2Url(), "sa", ""));
    }

    @Test
    void onPostgresNoRawPersonalDataReachesSilverOrGold() throws Exception {
        try (EmbeddedPostgres pg = EmbeddedPostgres.builder().start()) {
            check(spec(pg.getJdbcUrl("postgres", "postgres"), "postgres", "postgres"));
        }
    }

    private void check(PipelineSpec spec) throws Exception {
        List<CSVRecord> raw = rawRows();
        assertThat(raw).hasSize(63);
        TreeSet<String> days = new TreeSet<>();
        raw.forEach(r -> days.add(r.get("death_date")));
        assertThat(days).hasSize(10);
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            PipelineRunner runner = new PipelineRunner(w, TestHome.withSampleData());
            long read = 0;
            for (String day : days) {
                RunSummary s = runner.run(spec, Partition.parseDaily(day), RunOptions.plain());
                assertThat(s.failure()).as(day).isNull();
                long expected = raw.stream().filter(r -> r.get("death_date").equals(day)).count();
                assertThat(s.rowsRead()).as(day).isEqualTo(expected);
                assertThat(s.bronzeRows()).as(day).isEqualTo(expected);
                assertThat(s.silverRows()).as(day).isEqualTo(expected);
                assertThat(s.quarantined()).as(day).isZero();
                read += s.rowsRead();
            }
            assertThat(read).isEqualTo(63);
            // a second pass over the same file version loads nothing twice
            RunSummary again = runner.run(spec, Partition.parseDaily("1992-04-30"), RunOptions.plain().withRerun(true));
            assertThat(again.bronzeRows()).isEqualTo(28);
            assertThat(w.dsl().fetchCount(DSL.table("bronze.la_riots_raw"))).isEqualTo(63);

            DSLContext dsl = w.dsl();
            Set<String> expected = new TreeSet<>();
            for (CSVRecord r : raw) {
                expected.add(hmac(r.get("first_name")) + "|" + hmac(r.get("last_name")) + "|" + r.get("death_date")
                        + "|" + shape(r.get("address")) + "|" + r.get("age") + "|" + r.get("type"));
            }
            Set<String> actual = new TreeSet<>(dsl.resultQuery("SELECT first_name_token || '|' || last_name_token || '|' || "
                    + "CAST(death_date AS VARCHAR(10)) || '|' || COALESCE(address_shape, '') || '|' || COALESCE(CAST(age AS VARCHAR(3)), '') || '|' || death_type"
                    + " FROM silver.la_riots_deaths").fetch(0, String.class));
            assertThat(actual).isEqualTo(expected);
            assertThat(dsl.resultQuery("SELECT address_shape FROM silver.la_riots_deaths WHERE first_name_token = ?",
                    hmac("Cesar A.")).fetchOne(0, String.class)).isEqualTo("9999 x. 9xx xx.");
            // the same surname gives the same token, so joins and distinct counts still work
            assertThat(dsl.resultQuery("SELECT COUNT(*) FROM silver.la_riots_deaths WHERE last_name_token = ?",
                    hmac("Taylor")).fetchOne(0, Long.class)).isEqualTo(3L);
            assertThat(dsl.resultQuery("SELECT SUM(deaths) FROM gold.la_riots_by_neighborhood").fetchOne(0, Long.class))
                    .isEqualTo(63L);

            assertNoRawPii(spec, dsl, raw);
        }
    }

    /** Every value of every column of every Silver and Gold table and version table, against every raw PII value. */
    static void assertNoRawPii(PipelineSpec spec, DSLContext dsl, List<CSVRecord> raw) {
        Set<String> pii = new HashSet<>();
        for (CSVRecord r : raw) {
            PII_COLUMNS.forEach(c -> pii.add(r.get(c)));
        }
        List<String> scanned = new ArrayList<>();
        long values = 0;
        for (TableSpec t : spec.tables()) {
            if (t.layer() == Layer.BRONZE) {
                continue;
            }
            for (String table : List.of(t.table().qualifiedName(), LayerTables.versions(t.table()).qualifiedName())) {
                var result = dsl.resultQuery("SELECT * FROM " + table).fetch();
                assertThat(result).as(table).isNotEmpty();
                for (var row : result) {
                    for (int i = 0; i < row.size(); i++) {
                        Object v = row.get(i);
                        if (v == null) {
                            continue;
                        }
                        String text = v.toString();
                        values++;
                        assertThat(pii).as("%s.%s", table, row.field(i).getName()).doesNotContain(text);
                        for (String p : pii) {
                            if (p.length() >= 4) {
                                assertThat(text).as("%s.%s", table, row.field(i).getName()).doesNotContain(p);
                            }
                        }
                    }
                }
                scanned.add(table);
            }
            assertThat(t.columns()).extracting(c -> c.name()).doesNotContain("longitude", "latitude", "address");
        }
        assertThat(scanned).hasSize(4);
        assertThat(values).isGreaterThan(63 * 9);
    }
}
