package dev.sluice.batch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.batch.job.RunSummary;
import dev.sluice.batch.testkit.PiiTestKey;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.config.SluiceEnvironment;
import dev.sluice.config.TableSpec;
import dev.sluice.core.Layer;
import dev.sluice.core.Partition;
import dev.sluice.spark.LakehouseCatalog;
import dev.sluice.spark.SparkSessions;
import dev.sluice.warehouse.Warehouse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.commons.csv.CSVRecord;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code la_riots} pipeline of the project on the lakehouse engine ({@code engine: lakehouse}
 * put into the shipped spec): names are the same keyed HMAC tokens as {@code javax.crypto.Mac}'s
 * (and as the warehouse engine's, {@link LaRiotsPiiIT}), addresses masked to their shape,
 * coordinates dropped, and not one raw PII value in any column of any Silver or Gold Iceberg table,
 * in any of its snapshots; Bronze keeps the raw rows. H2 catalog; three of the ten days in CI,
 * all ten under {@code -Pfull}.
 */
class LaRiotsPiiLakehouseIT {

    @TempDir
    Path dir;

    @Test
    void onTheLakehouseNoRawPersonalDataReachesSilverOrGold() throws Exception {
        String shipped = Files.readString(TestHome.projectRoot().resolve("pipelines/la_riots.yaml"));
        assertThat(shipped).contains("pipeline: la_riots\n");
        Path specDir = Files.createDirectories(dir.resolve("spec/contracts")).getParent();
        Files.copy(TestHome.projectRoot().resolve("pipelines/contracts/la_riots.v1.yaml"), specDir.resolve("contracts/la_riots.v1.yaml"));
        Path specFile = Files.writeString(specDir.resolve("la_riots.yaml"), shipped.replace("pipeline: la_riots\n",
                "pipeline: la_riots\nengine: lakehouse\nlakehouse: {location: \"${SLUICE_LAKEHOUSE}\"}\n"));
        Map<String, String> env = new HashMap<>(TestHome.environment(TestHome.withSampleData(), TestHome.freshH2Url(), "sa", "").variables());
        env.put("SLUICE_PII_KEY_V1", PiiTestKey.KEY);
        env.put("SLUICE_LAKEHOUSE", dir.resolve("lake").toString());
        PipelineSpec spec = new PipelineSpecLoader(new SluiceEnvironment(env).interpolator()).load(specFile);
        assertThat(spec.engine().kind().name()).isEqualTo("LAKEHOUSE");

        List<CSVRecord> all = LaRiotsPiiIT.rawRows();
        TreeSet<String> days = new TreeSet<>();
        all.forEach(r -> days.add(r.get("death_date")));
        assertThat(days).hasSize(10);
        if (!Boolean.getBoolean("sluice.full")) { // CI: three days (the first, the busiest with Cesar A., the last); -Pfull: all ten
            days.retainAll(Set.of(days.first(), "1992-04-30", days.last()));
        }
        List<CSVRecord> raw = all.stream().filter(r -> days.contains(r.get("death_date"))).toList();
        try (Warehouse w = Warehouse.open(spec.warehouse())) {
            PipelineRunner runner = new PipelineRunner(w, TestHome.withSampleData());
            for (String day : days) {
                RunSummary s = runner.run(spec, Partition.parseDaily(day), RunOptions.plain());
                assertThat(s.failure()).as(day).isNull();
                long expected = raw.stream().filter(r -> r.get("death_date").equals(day)).count();
                assertThat(s.bronzeRows()).as(day).isEqualTo(expected);
                assertThat(s.silverRows()).as(day).isEqualTo(expected);
                assertThat(s.quarantined()).as(day).isZero();
            }
        }
        SparkSession spark = SparkSessions.lakehouse(spec.sparkMaster(),
                new LakehouseCatalog(spec.warehouse().url(), "sa", "", spec.engine().location()));
        Set<String> expected = new TreeSet<>();
        for (CSVRecord r : raw) {
            expected.add(LaRiotsPiiIT.hmac(r.get("first_name")) + "|" + LaRiotsPiiIT.hmac(r.get("last_name")) + "|" + r.get("death_date")
                    + "|" + LaRiotsPiiIT.shape(r.get("address")) + "|" + r.get("age") + "|" + r.get("type"));
        }
        List<String> actual = spark.sql("SELECT concat_ws('|', first_name_token, last_name_token, CAST(death_date AS STRING),"
                + " coalesce(address_shape, ''), coalesce(CAST(age AS STRING), ''), death_type) FROM silver.la_riots_deaths")
                .as(Encoders.STRING()).collectAsList();
        assertThat(new TreeSet<>(actual)).isEqualTo(expected);
        assertThat(actual).hasSize(raw.size());
        assertThat(spark.sql("SELECT address_shape FROM silver.la_riots_deaths WHERE first_name_token = '"
                + LaRiotsPiiIT.hmac("Cesar A.") + "'").as(Encoders.STRING()).collectAsList()).containsExactly("9999 x. 9xx xx.");
        assertThat(spark.sql("SELECT SUM(deaths) FROM gold.la_riots_by_neighborhood").first().getLong(0)).isEqualTo((long) raw.size());
        // Bronze keeps the raw values (for replay and erasure requests)
        assertThat(spark.sql("SELECT count(*) FROM bronze.la_riots_raw WHERE first_name = 'Cesar A.'").first().getLong(0)).isEqualTo(1L);

        Set<String> pii = new HashSet<>();
        for (CSVRecord r : raw) {
            LaRiotsPiiIT.PII_COLUMNS.forEach(c -> pii.add(r.get(c)));
        }
        long values = 0;
        int snapshots = 0;
        for (TableSpec t : spec.tables()) {
            if (t.layer() == Layer.BRONZE) {
                continue;
            }
            String table = t.table().qualifiedName();
            List<Long> ids = spark.sql("SELECT snapshot_id FROM " + table + ".snapshots").as(Encoders.LONG()).collectAsList();
            assertThat(ids).as(table).hasSizeGreaterThanOrEqualTo(days.size());
            for (long id : ids) {
                snapshots++;
                for (Row row : spark.sql("SELECT * FROM " + table + " VERSION AS OF " + id).collectAsList()) {
                    for (int i = 0; i < row.size(); i++) {
                        if (row.isNullAt(i)) {
                            continue;
                        }
                        String text = row.get(i).toString();
                        values++;
                        assertThat(pii).as("%s@%d.%s", table, id, row.schema().fieldNames()[i]).doesNotContain(text);
                        for (String p : pii) {
                            if (p.length() >= 4) {
                                assertThat(text).as("%s@%d.%s", table, id, row.schema().fieldNames()[i]).doesNotContain(p);
                            }
                        }
                    }
                }
            }
            assertThat(new ArrayList<>(List.of(spark.table(table).columns()))).doesNotContain("longitude", "latitude", "address");
        }
        assertThat(snapshots).isGreaterThanOrEqualTo(2 * days.size());
        assertThat(raw.size()).isGreaterThan(28);
        assertThat(values).isGreaterThan(raw.size() * 9L);
    }
}
