package dev.sluice.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.app.cli.SluiceCommand;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.SluiceEnvironment;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One test per design rule: the shipped spec broken in exactly that way, the exact finding
 * {@code sluice validate} prints (file: key path: [SEVERITY rule] message), and {@code sluice run}
 * refusing to start (exit 2, before any landing file is read); a warning refuses only with
 * {@code --strict}. The shipped specs themselves break no rule.
 */
class DesignRulesCliTest {

    @TempDir
    Path dir;

    private static final String PII_KEY = "k".repeat(40);

    @Test
    void theShippedPipelinesHoldEveryRule() {
        for (String p : new String[] {"flights", "flights_lake", "earthquakes", "la_riots"}) {
            Result r = sluice(TestHome.projectRoot().resolve("pipelines"), "validate", p);
            assertThat(r.code).as(r.all()).isZero();
            assertThat(r.out).endsWith("valid; every design rule holds\n");
        }
    }

    @Test
    void adviseSaysTheModeAndExitsOneWhenTheDesignDisagrees() throws Exception {
        Path pipelines = TestHome.projectRoot().resolve("pipelines");
        Result la = sluice(pipelines, "advise", "la_riots");
        assertThat(la.code).as(la.all()).isZero();
        assertThat(la.out).isEqualTo("la_riots: BATCH\n  because a latency of 24h (≥ 1 h) is met by batch\n  because peak volume 100 rows/day\n"
                + "  the declared design agrees\n");
        assertThat(sluice(pipelines, "advise", "flights").out).startsWith("flights: HYBRID (hot path + batch, reconciled)\n");
        String spec = flights("  live_numbers: true\n", "  live_numbers: false\n").replace("  latency: PT30S\n", "  latency: PT2H\n");
        Result batch = sluice(write(spec).getParent(), "advise", "flights");
        assertThat(batch.code).as(batch.all()).isOne();
        assertThat(batch.out).contains("flights: BATCH\n").contains("  disagrees: a hot_path is declared though no latency under a minute is"
                + " needed: it is cost without benefit\n");
    }

    @Test
    void anExemptionWithAReasonIsPrintedAndBlocksNothingOneWithoutIsAnError() throws Exception {
        String broken = remove(flights(), "(?s)      # sink gate: judged before the mart's new version is published\n      checks:\n.*?(?=      columns:)");
        Path file = write(broken + "design_exemptions:\n  - {rule: gates.sink, reason: \"the marts are checked by the BI team's own suite\"}\n");
        Result v = sluice(file.getParent(), "validate", "flights");
        assertThat(v.code).as(v.all()).isZero();
        assertThat(v.out).contains("valid; 0 design error(s), 0 warning(s), 1 exempted").contains("  " + file + ": layers.gold: [EXEMPT gates.sink]"
                + " no quality check at the sink boundary: give at least one gold table checks (e.g. expect_table_row_count_to_be_between on"
                + " gold.airport_monthly_delays) (exempted: the marts are checked by the BI team's own suite)\n");
        Path bare = write(broken + "design_exemptions:\n  - {rule: gates.sink}\n");
        Result b = sluice(bare.getParent(), "validate", "flights");
        assertThat(b.code).as(b.all()).isEqualTo(2);
        assertThat(b.err).contains(bare + ": design_exemptions[0].reason: [ERROR design.exemption] an exemption from gates.sink says why"
                + " (reason), for the reviewer");
    }

    @Test
    void idempotencyPartition() throws Exception {
        String spec = flights("    - table: gold.route_daily\n      input: silver.flights\n      partition: daily\n",
                "    - table: gold.route_daily\n      input: silver.flights\n");
        refused(spec, "layers.gold[1].partition: [ERROR idempotency.partition] gold table gold.route_daily declares no partition: write"
                + " partition: daily (one version per partition, re-runs replace it) or partition: none (a reference snapshot)");
    }

    @Test
    void idempotencyWriteMode() throws Exception {
        String spec = flights("      input: silver.flights\n      partition: daily\n      write: overwrite-partition\n      key: [flight_date, origin]\n",
                "      input: silver.flights\n      partition: daily\n      key: [flight_date, origin]\n");
        refused(spec, "layers.gold[0].write: [ERROR idempotency.write_mode] gold table gold.airport_daily_delays declares no write mode:"
                + " write overwrite-partition (a re-run replaces the partition) or merge-on-key (a re-run upserts by key)");
    }

    @Test
    void idempotencyBronzeAppend() throws Exception {
        String spec = flights("      source: flights\n      write: append\n", "      source: flights\n      write: overwrite-partition\n");
        refused(spec, "layers.bronze[1].write: [ERROR idempotency.bronze_append] Bronze table bronze.flights_raw is append-only (raw rows"
                + " with ingest metadata, each load recorded); write: overwrite-partition is not a Bronze write mode");
    }

    @Test
    void idempotencySnapshotInputIsAWarningAndMergeOnKeyIsNotWarned() throws Exception {
        String daily = "    - table: gold.route_daily\n      input: silver.flights\n      partition: daily\n      write: overwrite-partition\n";
        String none = "    - table: gold.route_daily\n      input: silver.flights\n      partition: none\n      write: overwrite-partition\n";
        warned(flights(daily, none), "layers.gold[1].partition: [WARN idempotency.snapshot_input] gold table gold.route_daily is a snapshot"
                + " (partition: none) written overwrite-partition from silver.flights, which is partitioned: every run rebuilds it from its own"
                + " partition of silver.flights alone, so it holds the partition published last. Right when each partition is a full extract;"
                + " else declare partition: daily or a rollup (e.g. partition: monthly)");
        Path merged = write(flights(daily, none.replace("overwrite-partition", "merge-on-key")));
        Result v = sluice(merged.getParent(), "validate", "flights");
        assertThat(v.code).as(v.all()).isZero();
        assertThat(v.out).as("merge-on-key keeps what earlier partitions wrote").endsWith("valid; every design rule holds\n");
    }

    @Test
    void gatesAtTheSourceBoundary() throws Exception {
        String spec = remove(flights(), "(?s)      # source gate: the landed partition as read\n      checks:\n.*?(?=\n  silver:)");
        refused(spec, "layers.bronze: [ERROR gates.source] no quality check at the source boundary: give at least one bronze table checks"
                + " (e.g. expect_table_row_count_to_be_between on bronze.flights_raw)");
    }

    @Test
    void gatesAtTheTransformBoundary() throws Exception {
        String spec = remove(flights(), "(?s)      # transform gate: judged before the new version is published\n      checks:\n.*?(?=      # Exact)");
        refused(spec, "layers.silver: [ERROR gates.transform] no quality check at the transform boundary: give at least one silver table"
                + " checks (e.g. expect_table_row_count_to_be_between on silver.flights)");
    }

    @Test
    void gatesAtTheSinkBoundary() throws Exception {
        String spec = remove(flights(), "(?s)      # sink gate: judged before the mart's new version is published\n      checks:\n.*?(?=      columns:)");
        refused(spec, "layers.gold: [ERROR gates.sink] no quality check at the sink boundary: give at least one gold table checks"
                + " (e.g. expect_table_row_count_to_be_between on gold.airport_monthly_delays)");
    }

    @Test
    void rawRetentionNoShorterThanTheBackfillWindow() throws Exception {
        String spec = flights("      source: flights\n      write: append\n      retention: ${SLUICE_BRONZE_RETENTION:-P10000D}\n",
                "      source: flights\n      write: append\n      retention: P90D\n");
        refused(spec, "layers.bronze[1].retention: [ERROR raw.retention] Bronze table bronze.flights_raw keeps raw rows P90D, shorter than"
                + " backfill_window P10000D: a backfill could reach partitions whose raw rows are gone");
    }

    @Test
    void piiColumnsHaveAPolicy() throws Exception {
        Path pipelines = Files.createDirectories(dir.resolve("pipelines/contracts"));
        Path project = TestHome.projectRoot().resolve("pipelines");
        Files.copy(project.resolve("contracts/la_riots.v1.yaml"), pipelines.resolve("la_riots.v1.yaml"));
        String spec = Files.readString(project.resolve("la_riots.yaml"));
        assertThat(spec).contains("      address: mask\n");
        Path file = Files.writeString(pipelines.getParent().resolve("la_riots.yaml"), spec.replace("      address: mask\n", ""));
        Result v = sluice(file.getParent(), "validate", "la_riots");
        String contract = pipelines.resolve("la_riots.v1.yaml").toString();
        String line = contract + ": columns.address: [ERROR pii.policy] PII column address of contract la_riots.v1 has no policy in source"
                + " la_riots: give it one of hash, mask, drop, keep under sources[0].pii";
        assertThat(v.code).as(v.all()).isEqualTo(2);
        assertThat(v.err).contains("  " + line + "\n");
        Result run = sluice(file.getParent(), "run", "la_riots", "--partition", "1992-04-30");
        assertThat(run.code).as(run.all()).isEqualTo(2);
        assertThat(run.err).contains("pipeline la_riots breaks 1 design rule(s)").contains(line);
    }

    @Test
    void noLiteralSecret() throws Exception {
        String spec = flights("  password: ${SLUICE_WAREHOUSE_PASSWORD:-}\n", "  password: hunter2\n");
        String all = refused(spec, "warehouse.password: [ERROR hardcoded.secret] a literal password: write ${ENV_VAR} (secrets come from the"
                + " environment and are never logged; the value is not shown)");
        assertThat(all).doesNotContain("hunter2");
    }

    @Test
    void noCredentialInAUrlAndNoneShownWhenTheWarehouseCannotBeReached() throws Exception {
        String spec = flights("  url: ${SLUICE_WAREHOUSE_URL:-jdbc:h2:file:${SLUICE_HOME}/warehouse;AUTO_SERVER=TRUE}\n",
                "  url: jdbc:postgresql://${DB_HOST:-localhost}:5432/wh?user=sluice&password=hunter2secret\n");
        String all = refused(spec, "warehouse.url: [ERROR hardcoded.secret] a literal credential in url (user:password@ or password=): give it"
                + " through ${ENV_VAR} or the warehouse.user/password keys (the value is not shown)");
        assertThat(all).doesNotContain("hunter2secret");
        assertThat(dev.sluice.warehouse.Warehouse.redacted("jdbc:postgresql://u:pw@db:5432/x?ssl=true&password=p2;PWD=p3"))
                .isEqualTo("jdbc:postgresql://u:****@db:5432/x?ssl=true&password=****;PWD=****");
    }

    @Test
    void noLiteralHostInAMultiHostOrIpv6Address() throws Exception {
        String spec = flights("  bootstrap_servers: ${SLUICE_KAFKA_BOOTSTRAP:-localhost:9092}\n",
                "  bootstrap_servers: ${SLUICE_KAFKA_BOOTSTRAP:-localhost:9092},10.1.2.3:9092\n");
        refused(spec, "hot_path.bootstrap_servers: [ERROR hardcoded.host] a literal host 10.1.2.3: write ${ENV_VAR:-default} so that each"
                + " environment points it elsewhere");
    }

    @Test
    void malformedExemptionsAreErrorsNotCrashes() throws Exception {
        Path map = write(flights() + "design_exemptions: {rule: gates.sink}\n");
        Result m = sluice(map.getParent(), "validate", "flights");
        assertThat(m.code).as(m.all()).isEqualTo(2);
        assertThat(m.err).contains("design_exemptions: [ERROR design.exemption] a list of {rule, reason} entries");
        Path strings = write(flights() + "design_exemptions: [gates.sink]\n");
        Result st = sluice(strings.getParent(), "validate", "flights");
        assertThat(st.code).as(st.all()).isEqualTo(2);
        assertThat(st.err).contains("design_exemptions[0]: [ERROR design.exemption] an entry is {rule, reason}, e.g. {rule: gates.sink, reason:");
    }

    @Test
    void noLiteralHost() throws Exception {
        String spec = flights("  bootstrap_servers: ${SLUICE_KAFKA_BOOTSTRAP:-localhost:9092}\n", "  bootstrap_servers: kafka-1.prod.internal:9092\n");
        refused(spec, "hot_path.bootstrap_servers: [ERROR hardcoded.host] a literal host kafka-1.prod.internal: write ${ENV_VAR:-default} so"
                + " that each environment points it elsewhere");
    }

    @Test
    void noLiteralAbsolutePath() throws Exception {
        String spec = flights("    path: ${SLUICE_HOME}/landing/airports/airports.csv\n", "    path: /srv/landing/airports/airports.csv\n");
        refused(spec, "sources[1].path: [ERROR hardcoded.path] a literal absolute path /srv/landing/airports/airports.csv: build it from"
                + " ${SLUICE_HOME} or ${ENV_VAR:-default}");
    }

    @Test
    void aWarehouseUrlBuiltFromSluiceHomeIsNoLiteralPathAnAbsoluteOneIs() throws Exception {
        // a new user's first spec was refused: the check read the URL with ${SLUICE_HOME} taken out, jdbc:h2:file:/warehouse
        String from = "  url: ${SLUICE_WAREHOUSE_URL:-jdbc:h2:file:${SLUICE_HOME}/warehouse;AUTO_SERVER=TRUE}\n";
        Path file = write(flights(from, "  url: \"jdbc:h2:file:${SLUICE_HOME}/warehouse;AUTO_SERVER=TRUE\"\n"));
        Result v = sluice(file.getParent(), "validate", "flights");
        assertThat(v.all()).doesNotContain("hardcoded.path");
        assertThat(v.code).as(v.all()).isZero();
        Path absolute = write(flights(from, "  url: \"jdbc:h2:file:/srv/sluice/warehouse;AUTO_SERVER=TRUE\"\n"));
        Result refused = sluice(absolute.getParent(), "validate", "flights");
        assertThat(refused.code).as(refused.all()).isEqualTo(2);
        assertThat(refused.err).contains(absolute + ": warehouse.url: [ERROR hardcoded.path] a literal absolute path in url: build it from"
                + " ${SLUICE_HOME} or ${ENV_VAR:-default}");
    }

    @Test
    void ownershipIsAWarningThatStrictTurnsIntoAnError() throws Exception {
        String spec = flights("  gold.route_daily: {owner: flights-data-team, update_interval: PT24H, freshness_sla: PT40H}\n",
                "  gold.route_daily: {update_interval: PT24H, freshness_sla: PT40H}\n");
        warned(spec, "datasets.gold.route_daily.owner: [WARN ownership.owner] dataset gold.route_daily has no owner: name the team that"
                + " answers for it");
    }

    @Test
    void reliabilityTierIsAWarning() throws Exception {
        String spec = flights("tier: 2\n", "");
        warned(spec, "tier: [WARN reliability.tier] no availability tier: declare tier 1 (99.9 %: 43.8 min of downtime in a 730-hour"
                + " month), 2 (99.5 %: 3.65 h) or 3 (99.0 %: 7.3 h)");
    }

    @Test
    void reliabilityFreshnessIsAWarning() throws Exception {
        String spec = flights("  gold.route_daily: {owner: flights-data-team, update_interval: PT24H, freshness_sla: PT40H}\n", "");
        warned(spec, "datasets.gold.route_daily: [WARN reliability.freshness] dataset gold.route_daily declares no update_interval and"
                + " freshness_sla (> 1.5 × the interval): its freshness cannot be judged");
    }

    /** `validate` exits 2 with {@code finding} (after the file name); `run` refuses with it, before reading any landing file. */
    private String refused(String spec, String finding) throws Exception {
        Path file = write(spec);
        String line = file + ": " + finding;
        Result v = sluice(file.getParent(), "validate", "flights");
        assertThat(v.code).as(v.all()).isEqualTo(2);
        assertThat(v.err).contains("  " + line + "\n");
        Result run = sluice(file.getParent(), "run", "flights", "--partition", "2001-01-02");
        assertThat(run.code).as(run.all()).isEqualTo(2);
        assertThat(run.err).contains("pipeline flights breaks 1 design rule(s); `sluice validate " + file + "` lists them:").contains(line);
        return v.all() + run.all();
    }

    /** `validate` exits 0 printing {@code finding}; with --strict `validate` and `run` refuse. */
    private void warned(String spec, String finding) throws Exception {
        Path file = write(spec);
        String line = file + ": " + finding;
        Result v = sluice(file.getParent(), "validate", "flights");
        assertThat(v.code).as(v.all()).isZero();
        assertThat(v.out).contains("  " + line + "\n");
        Result strict = sluice(file.getParent(), "validate", "flights", "--strict");
        assertThat(strict.code).as(strict.all()).isEqualTo(2);
        Result run = sluice(file.getParent(), "run", "flights", "--partition", "2001-01-02", "--strict");
        assertThat(run.code).as(run.all()).isEqualTo(2);
        assertThat(run.err).contains("(strict: warnings count)").contains(line);
    }

    private String flights() throws Exception {
        return Files.readString(TestHome.projectRoot().resolve("pipelines/flights.yaml"));
    }

    private String flights(String from, String to) throws Exception {
        String spec = flights();
        assertThat(spec).contains(from);
        return spec.replace(from, to);
    }

    private static String remove(String spec, String regex) {
        var m = Pattern.compile(regex).matcher(spec);
        assertThat(m.find()).as("the spec holds " + regex).isTrue();
        return m.replaceFirst("");
    }

    private Path write(String spec) throws Exception {
        Path pipelines = dir.resolve("pipelines");
        Path file = Files.exists(pipelines.resolve("flights.yaml")) ? pipelines.resolve("flights.yaml") : TestHome.copyFlightsSpec(pipelines);
        return Files.writeString(file, spec);
    }

    private record Result(int code, String out, String err) {
        String all() {
            return "exit " + code + "\n" + out + err;
        }
    }

    private Result sluice(Path pipelines, String... args) {
        Map<String, String> vars = new HashMap<>(Map.of("SLUICE_HOME", dir.resolve("home").toString(), "SLUICE_PIPELINES", pipelines.toString(),
                "SLUICE_WAREHOUSE_URL", "jdbc:h2:mem:design-" + java.util.UUID.randomUUID(), "SLUICE_PII_KEY_V1", PII_KEY));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = SluiceCommand.execute(new SluiceEnvironment(vars), new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Result(code, out.toString(), err.toString());
    }
}
