package dev.sluice.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.app.serve.CatalogApi;
import dev.sluice.app.serve.LineageServer;
import dev.sluice.app.serve.WarehouseMetrics;
import dev.sluice.batch.job.PipelineRunner;
import dev.sluice.batch.job.RunOptions;
import dev.sluice.batch.job.RunSummary;
import dev.sluice.lineage.store.LineageRepository;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.core.Partition;
import dev.sluice.warehouse.Warehouse;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The page of {@code sluice serve} in headless Chromium (Debian's chromium and chromedriver: {@code
 * apt-get install chromium chromium-driver}, which the README names and the build checks for before
 * anything runs; {@code -Dsluice.chromium} and {@code -Dsluice.chromedriver} point elsewhere), over
 * the lineage of real flights loads: 2001-01-03 (three exact
 * duplicates: the Bronze uniqueness check WARNED) and 2001-02-22 under a spec whose sink check is
 * impossible (avg_delay_in_range FAILED, the run failed). A data owner searches, opens
 * gold.airport_daily_delays, walks upstream (a click on the graph, then the links) to the landing
 * files, reads the schema with each column's origin, opens the run that wrote the partition, and
 * sees the warn and the fail. The token given once in the address ({@code ?token=}) is gone from it
 * once the page has stored it, other parameters and the route kept; no view breaks the server's
 * Content-Security-Policy, and the browser refuses an inline script under it. Screenshots of
 * each view go to {@code app/target/screenshots}.
 */
class PageIT {

    @TempDir
    Path specDir;

    private static final String TOKEN = "page-t0ken";

    @Test
    void aDataOwnerFindsTheMartWalksUpstreamAndSeesItsRunsAndChecks() throws Exception {
        Path chromium = tool("sluice.chromium", "/usr/bin/chromium");
        Path chromedriver = tool("sluice.chromedriver", "/usr/bin/chromedriver");
        Path specFile = TestHome.copyFlightsSpec(specDir);
        PipelineSpec good = TestHome.flightsSpec(TestHome.freshH2Url(), "sa", "");
        Files.writeString(specFile, Files.readString(specFile).replace("column: avg_delay_min, min_value: -120, max_value: 2880}",
                "column: avg_delay_min, min_value: -120, max_value: 5}"));
        PipelineSpec strict = new PipelineSpecLoader(TestHome.environment(TestHome.withSampleData(), good.warehouse().url(), "sa", "")
                .interpolator()).load(specFile);
        Path shots = Files.createDirectories(TestHome.projectRoot().resolve("app/target/screenshots"));
        try (Warehouse w = Warehouse.open(good.warehouse())) {
            PipelineRunner runner = new PipelineRunner(w, TestHome.withSampleData());
            RunSummary run = runner.run(good, new Partition("2001-01-03"), RunOptions.plain());
            assertThat(run.status().name()).isEqualTo("COMPLETED");
            assertThat(runner.run(strict, new Partition("2001-02-22"), RunOptions.plain()).status().name()).isEqualTo("FAILED");
            // a backfill of 2001-01-02 … 2001-01-03: the first day runs, the second is already COMPLETED
            var backfill = new dev.sluice.batch.backfill.Backfill(runner, Clock.systemUTC());
            var report = backfill.run(good, backfill.plan(good, java.time.LocalDate.parse("2001-01-02"), java.time.LocalDate.parse("2001-01-03"), false),
                    new dev.sluice.batch.backfill.Backfill.Options(1, 64, "page-test"), dev.sluice.batch.backfill.Backfill.Progress.NONE);
            assertThat(report.status().name()).isEqualTo("COMPLETED");
            try (LineageServer server = new LineageServer(new InetSocketAddress("127.0.0.1", 0), new LineageRepository(w.dsl()), TOKEN,
                    new CatalogApi(w.dsl(), good, Clock.systemUTC()), new WarehouseMetrics(w.dsl(), good, Clock.systemUTC()))) {
                WebDriver browser = chromium(chromium, chromedriver);
                try {
                    WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(20));
                    String base = "http://127.0.0.1:" + server.port();
                    browser.get(base + "/?lang=en&token=" + TOKEN + "&x=1#/");
                    WebElement search = wait.until(ExpectedConditions.elementToBeClickable(By.id("search")));
                    search.sendKeys("airport_daily");
                    search.submit();
                    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("results"), "gold.airport_daily_delays"));
                    // the token is kept for the tab and gone from the address bar (and the tab's back/forward entry);
                    // the other parameters and the route stay
                    assertThat(browser.getCurrentUrl()).isEqualTo(base + "/?lang=en&x=1#/");
                    shot(browser, shots, "1-search");
                    browser.findElement(By.linkText("gold.airport_daily_delays")).click();

                    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), "gold.airport_daily_delays"));
                    wait.until(d -> (Boolean) ((org.openqa.selenium.JavascriptExecutor) d).executeScript(
                            "return !!window.sluiceGraph && window.sluiceGraph.nodes().length > 3"));
                    assertThat(browser.findElement(By.id("upstream")).getText()).isEqualTo("silver.flights");
                    assertThat(browser.findElement(By.id("downstream")).getText()).isEqualTo("gold.airport_monthly_delays");
                    String page = browser.findElement(By.id("view")).getText();
                    assertThat(page).contains("2001-01-03").contains(run.runId().toString()).contains("one_row_per_airport")
                            .contains("avg_delay_in_range").contains("FAILED").contains("flights-data-team");
                    assertThat(browser.findElement(By.xpath("//tr[td[text()='avg_delay_min']]")).getText())
                            .as("schema and column lineage").isEqualTo("avg_delay_min double silver.flights.delay_min (AGGREGATION)");
                    shot(browser, shots, "2-dataset");

                    // a real click on the graph's silver.flights node moves along the graph
                    List<?> at = (List<?>) ((org.openqa.selenium.JavascriptExecutor) browser).executeScript(
                            "const p = window.sluiceGraph.getElementById('silver.flights').renderedPosition();"
                                    + " const c = document.getElementById('graph').getBoundingClientRect(); return [p.x, p.y, c.width, c.height];");
                    WebElement graph = browser.findElement(By.id("graph"));
                    int x = (int) Math.round(((Number) at.get(0)).doubleValue() - ((Number) at.get(2)).doubleValue() / 2);
                    int y = (int) Math.round(((Number) at.get(1)).doubleValue() - ((Number) at.get(3)).doubleValue() / 2);
                    new Actions(browser).moveToElement(graph, x, y).click().perform();
                    wait.until(ExpectedConditions.textToBe(By.tagName("h1"), "silver.flights"));
                    browser.findElement(By.linkText("bronze.flights_raw")).click();
                    wait.until(ExpectedConditions.textToBe(By.tagName("h1"), "bronze.flights_raw"));
                    assertThat(browser.findElement(By.id("upstream")).getText()).isEqualTo("landing/flights");
                    // the exact duplicates of 2001-01-03: the uniqueness check warns
                    WebElement warned = browser.findElement(By.xpath("//tr[td[text()='no_exact_duplicates']]/td[4]"));
                    assertThat(warned.getText()).isEqualTo("WARNED");
                    assertThat(warned.getAttribute("class")).isEqualTo("status-WARNED");
                    shot(browser, shots, "3-bronze");
                    browser.findElement(By.linkText("landing/flights")).click();
                    wait.until(ExpectedConditions.textToBe(By.tagName("h1"), "landing/flights"));
                    assertThat(browser.findElement(By.id("downstream")).getText()).isEqualTo("bronze.flights_raw");

                    browser.get(base + "/#/dataset/gold.airport_daily_delays");
                    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), "gold.airport_daily_delays"));
                    WebElement failed = browser.findElement(By.xpath("//tr[td[text()='2001-02-22'] and td[text()='avg_delay_in_range']]/td[4]"));
                    assertThat(failed.getText()).isEqualTo("FAILED");
                    // the partitions come in pages: here all 3 (2001-02-22 judged, not published); an older page says it is partial
                    assertThat(browser.findElement(By.id("page")).getText()).isEqualTo("3 of 3 partition(s)");
                    browser.get(base + "/#/dataset/gold.airport_daily_delays?before=2001-02-22");
                    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("page"), "newest"));
                    assertThat(browser.findElement(By.id("page")).getText())
                            .isEqualTo("partitions 2001-01-02 … 2001-01-03, 2 of 3 partition(s) (a page: the list is partial) · newest");
                    browser.findElement(By.linkText(run.runId().toString())).click();
                    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), "Run " + run.runId()));
                    String runPage = browser.findElement(By.id("view")).getText();
                    assertThat(runPage).contains("flights").contains("2001-01-03").contains("COMPLETED")
                            .contains("bronze.flights_raw").contains(Long.toString(run.bronzeRows()));
                    shot(browser, shots, "4-run");
                    // ---- issue 28 item 4: the run page shows the reconcile step, its warnings, the checks and a timeline ----
                    runPageShowsEveryStepOnATimeline(browser, w.dsl(), run, shots);
                    // ---- end of issue 28 item 4 (run) ----

                    browser.get(base + "/#/backfill/" + report.backfillId());
                    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), "Backfill " + report.backfillId()));
                    var planned = report.outcomes().stream().filter(o -> o.partition().key().equals("2001-01-02")).findFirst().orElseThrow();
                    String row = browser.findElement(By.xpath("//div[@id='partitions']//tr[td[text()='2001-01-02']]")).getText();
                    assertThat(row).contains("COMPLETED").contains(planned.summary().runId().toString());
                    assertThat(browser.findElement(By.id("view")).getText()).contains("{\"COMPLETED\":1}");
                    // ---- issue 28 item 4: the backfill's timeline: one bar, the partition it ran (2001-01-03 was COMPLETED before) ----
                    assertThat(lanes(browser)).containsExactly("2001-01-02");
                    assertBarsFollowTheRecordedTimes(browser, List.of(new long[] {0, durationMs(w.dsl(), planned.summary().runId().toString())}));
                    // ---- end of issue 28 item 4 (backfill) ----
                    shot(browser, shots, "5-backfill");

                    // ---- issue 28 item 3: the graph expands on demand to any depth, and no edge crosses a label ----
                    deepGraph(browser, wait, base, new LineageRepository(w.dsl()), shots);
                    // ---- end of issue 28 item 3 ----

                    browser.get(base + "/#/dataset/gold.nope");
                    wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("error")));
                    assertThat(browser.findElement(By.id("error")).getText()).isEqualTo(
                            "no dataset 'gold.nope' is recorded here (try /api/v1/datasets?q=nope)");

                    // every view above ran under the server's Content-Security-Policy without a violation …
                    assertThat(cspViolations(browser)).as("the browser's log").isEmpty();
                    // … and the browser enforces it: an inline script is refused, and says so in the log
                    Object ran = ((org.openqa.selenium.JavascriptExecutor) browser).executeScript(
                            "const s = document.createElement('script'); s.textContent = 'window.inlineRan = true';"
                                    + " document.head.append(s); return window.inlineRan === true;");
                    assertThat(ran).as("an inline script ran").isEqualTo(false);
                    assertThat(cspViolations(browser)).singleElement().asString().contains("inline script")
                            .contains("violates the following Content Security Policy directive 'script-src 'self''");
                } finally {
                    browser.quit();
                }
            }
        }
    }

    // ---- issue 28 item 3: long edges ----

    /**
     * A lineage with edges that span levels (a → m over three, a → c and b → m over two, m → q over two)
     * and labels of different lengths, written straight into the store: each dataset sits in the column of
     * its longest path to m, every long edge passes the columns between through bend slots of its own, no
     * edge segment meets a label box and no two label boxes meet.
     */
    @Test
    void longEdgesPassBetweenTheLabels() throws Exception {
        Path chromium = tool("sluice.chromium", "/usr/bin/chromium");
        Path chromedriver = tool("sluice.chromedriver", "/usr/bin/chromedriver");
        Path shots = Files.createDirectories(TestHome.projectRoot().resolve("app/target/screenshots"));
        try (Warehouse w = Warehouse.open(TestHome.flightsSpec(TestHome.freshH2Url(), "sa", "").warehouse())) {
            String[][] edges = {{"landing/a_long_named_source.csv", "bronze.b"}, {"bronze.b", "silver.c"}, {"silver.c", "gold.m"},
                {"landing/a_long_named_source.csv", "gold.m"}, {"landing/a_long_named_source.csv", "silver.c"}, {"bronze.b", "gold.m"},
                {"x", "silver.c"}, {"gold.m", "gold.p_monthly_rollup_of_m"}, {"gold.p_monthly_rollup_of_m", "q"}, {"gold.m", "q"}};
            for (String[] e : edges) {
                w.dsl().query("INSERT INTO sluice.lineage_edge (run_id, job, partition_key, input_namespace, input_name, output_namespace,"
                        + " output_name, event_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", java.util.UUID.randomUUID().toString(), "job", "2001-01-01", "t", e[0], "t", e[1],
                        java.time.OffsetDateTime.parse("2001-01-01T00:00:00Z")).execute();
                // the dataset graph the walks read, which the store writes with each edge (DatasetGraph)
                w.dsl().query("INSERT INTO sluice.lineage_graph (input_name, output_name, job, input_namespace, output_namespace, first_seen,"
                        + " last_seen) VALUES (?, ?, ?, ?, ?, ?, ?)", e[0], e[1], "job", "t", "t",
                        java.time.OffsetDateTime.parse("2001-01-01T00:00:00Z"), java.time.OffsetDateTime.parse("2001-01-01T00:00:00Z")).execute();
            }
            try (LineageServer server = new LineageServer(new InetSocketAddress("127.0.0.1", 0), new LineageRepository(w.dsl()), null,
                    new CatalogApi(w.dsl(), null, Clock.systemUTC()), null)) {
                WebDriver browser = chromium(chromium, chromedriver);
                try {
                    var js = (org.openqa.selenium.JavascriptExecutor) browser;
                    browser.get("http://127.0.0.1:" + server.port() + "/#/dataset/gold.m");
                    new WebDriverWait(browser, Duration.ofSeconds(20)).until(d -> (Boolean) js.executeScript(
                            "return !!window.sluiceGraph && window.sluiceGraph.nodes('.dataset').length > 1"));
                    assertThat(new java.util.TreeSet<>(datasets(js))).containsExactly("bronze.b", "gold.m", "gold.p_monthly_rollup_of_m",
                            "landing/a_long_named_source.csv", "q", "silver.c", "x");
                    assertThat(js.executeScript("return window.sluiceGraph.nodes('.bend').length")).as("bends: 2 + 1 + 1 + 1").isEqualTo(5L);
                    @SuppressWarnings("unchecked")
                    List<Number> xs = (List<Number>) js.executeScript("return ['landing/a_long_named_source.csv', 'bronze.b', 'silver.c', 'gold.m',"
                            + " 'gold.p_monthly_rollup_of_m', 'q'].map(id => window.sluiceGraph.getElementById(id).position().x)");
                    for (int i = 1; i < xs.size(); i++) {
                        assertThat(xs.get(i).doubleValue()).as("column %d is right of column %d", i, i - 1).isGreaterThan(xs.get(i - 1).doubleValue());
                    }
                    assertNoEdgeCrossesALabel(js);
                    @SuppressWarnings("unchecked")
                    List<List<Number>> labels = (List<List<Number>>) js.executeScript("return window.sluiceGraph.nodes('.dataset').map(n => {"
                            + " const b = n.boundingBox({ includeNodes: false, includeEdges: false, includeLabels: true }); return [b.x1, b.y1, b.x2, b.y2]; })");
                    for (int i = 0; i < labels.size(); i++) {
                        for (int j = i + 1; j < labels.size(); j++) {
                            List<Number> a = labels.get(i);
                            List<Number> b = labels.get(j);
                            boolean meet = a.get(0).doubleValue() < b.get(2).doubleValue() && b.get(0).doubleValue() < a.get(2).doubleValue()
                                    && a.get(1).doubleValue() < b.get(3).doubleValue() && b.get(1).doubleValue() < a.get(3).doubleValue();
                            assertThat(meet).as("labels %d and %d meet", i, j).isFalse();
                        }
                    }
                    shot(browser, shots, "6b-long-edges");
                } finally {
                    browser.quit();
                }
            }
        }
    }

    // ---- end of issue 28 item 3: long edges ----

    // ---- issue 28 items 3 and 4: helpers ----

    /**
     * The run page lists every step Spring Batch recorded, the reconcile step last, and draws one bar per
     * step in start order whose left edge and width are the step's recorded start and duration over the
     * run's span (read from {@code BATCH_STEP_EXECUTION} here, independently of the page); the run's warnings
     * and the checks it judged (the duplicates WARNED, the reconciliation) are on it.
     */
    private static void runPageShowsEveryStepOnATimeline(WebDriver browser, org.jooq.DSLContext dsl, RunSummary run, Path shots) throws Exception {
        var steps = dsl.resultQuery("SELECT s.STEP_NAME, s.START_TIME, s.END_TIME FROM sluice.BATCH_STEP_EXECUTION s JOIN sluice.run r"
                + " ON r.job_execution_id = s.JOB_EXECUTION_ID WHERE r.run_id = ? ORDER BY s.START_TIME, s.STEP_EXECUTION_ID", run.runId().toString()).fetch();
        assertThat(steps).hasSize(run.steps().size() + 1);
        java.time.LocalDateTime first = steps.get(0).get(1, java.time.LocalDateTime.class);
        List<String> names = steps.map(r -> r.get(0, String.class));
        List<long[]> times = steps.map(r -> new long[] {Duration.between(first, r.get(1, java.time.LocalDateTime.class)).toMillis(),
                Duration.between(r.get(1, java.time.LocalDateTime.class), r.get(2, java.time.LocalDateTime.class)).toMillis()});
        assertThat(names.get(names.size() - 1)).isEqualTo("reconcile.gold.airport_delays_live");
        assertThat(lanes(browser)).as("one bar per step, in start order").isEqualTo(names);
        assertBarsFollowTheRecordedTimes(browser, times);
        assertThat(browser.findElement(By.xpath("//div[@id='steps']//tr[td[1][text()='reconcile.gold.airport_delays_live']]/td[3]")).getText())
                .isEqualTo("COMPLETED");
        String warnings = browser.findElement(By.id("warnings")).getText();
        assertThat(run.warnings()).isNotEmpty().allSatisfy(wn -> assertThat(warnings).contains(wn));
        assertThat(browser.findElement(By.xpath("//div[@id='checks']//tr[td[1][text()='bronze.flights_raw'] and td[3][text()='no_exact_duplicates']]/td[5]"))
                .getText()).isEqualTo("WARNED");
        assertThat(browser.findElements(By.xpath("//div[@id='checks']//tr[td[3][starts-with(text(), 'reconcile_')]]"))).hasSize(1);
        ((org.openqa.selenium.JavascriptExecutor) browser).executeScript("document.getElementById('timeline').previousElementSibling.scrollIntoView()");
        shot(browser, shots, "4b-run-timeline");
    }

    /** The {@code data-name} of each lane of the page's timeline, top to bottom. */
    private static List<String> lanes(WebDriver browser) {
        return browser.findElements(By.cssSelector("#timeline .lane")).stream().map(e -> e.getAttribute("data-name")).toList();
    }

    /**
     * Each bar's left edge and width, over its track's width, are its {start offset, duration} (ms) over the
     * timeline's span, within 1.5 px (a bar is at least 1 px wide), bars in lane order.
     */
    private static void assertBarsFollowTheRecordedTimes(WebDriver browser, List<long[]> times) {
        long span = times.stream().mapToLong(t -> t[0] + t[1]).max().orElseThrow();
        @SuppressWarnings("unchecked")
        List<List<Number>> boxes = (List<List<Number>>) ((org.openqa.selenium.JavascriptExecutor) browser).executeScript(
                "return [...document.querySelectorAll('#timeline .lane')].map(l => { const t = l.querySelector('.track').getBoundingClientRect();"
                        + " const b = l.querySelector('.bar').getBoundingClientRect(); return [t.left, t.width, b.left, b.width]; });");
        assertThat(boxes).hasSameSizeAs(times);
        for (int i = 0; i < times.size(); i++) {
            double track = boxes.get(i).get(1).doubleValue();
            assertThat(track).isGreaterThan(100);
            double left = boxes.get(i).get(2).doubleValue() - boxes.get(i).get(0).doubleValue();
            assertThat(left).as("bar %d's left edge", i).isCloseTo(track * times.get(i)[0] / span, org.assertj.core.data.Offset.offset(1.5));
            assertThat(boxes.get(i).get(3).doubleValue()).as("bar %d's width", i)
                    .isCloseTo(Math.max(1, track * times.get(i)[1] / span), org.assertj.core.data.Offset.offset(1.5));
        }
    }

    /** A run's recorded duration, ms ({@code sluice.run}). */
    private static long durationMs(org.jooq.DSLContext dsl, String runId) {
        var r = dsl.resultQuery("SELECT started_at, ended_at FROM sluice.run WHERE run_id = ?", runId).fetchOne();
        return Duration.between(r.get(0, java.time.OffsetDateTime.class), r.get(1, java.time.OffsetDateTime.class)).toMillis();
    }

    /**
     * gold.airport_daily_delays' graph: 3 levels each way at first, without landing/airports/airports.csv;
     * real clicks on the upstream '+' marks add a level each until none is left: the upstream nodes are then
     * the store's whole upstream walk, landing/airports/airports.csv four levels up. In each drawing no
     * edge segment (Cytoscape's rendered endpoints and bend points) crosses a node label's bounding box.
     * Then 'all levels'.
     */
    private static void deepGraph(WebDriver browser, WebDriverWait wait, String base, LineageRepository store, Path shots) throws Exception {
        var js = (org.openqa.selenium.JavascriptExecutor) browser;
        String mart = "gold.airport_daily_delays";
        browser.get(base + "/#/dataset/" + mart);
        wait.until(d -> (Boolean) js.executeScript("return !!window.sluiceGraph && window.sluiceGraph.nodes('.dataset').length > 3"));
        assertThat(datasets(js)).doesNotContain("landing/airports/airports.csv");
        assertNoEdgeCrossesALabel(js);
        int clicks = 0;
        while ((Long) js.executeScript("return window.sluiceGraph.nodes('.expand.up').length") > 0) {
            assertThat(++clicks).as("expansions").isLessThanOrEqualTo(10);
            long drawn = (Long) js.executeScript("return window.sluiceGraphDrawn");
            List<?> at = (List<?>) js.executeScript("const p = window.sluiceGraph.nodes('.expand.up')[0].renderedPosition();"
                    + " const c = document.getElementById('graph').getBoundingClientRect(); return [p.x, p.y, c.width, c.height];");
            new Actions(browser).moveToElement(browser.findElement(By.id("graph")),
                    (int) Math.round(((Number) at.get(0)).doubleValue() - ((Number) at.get(2)).doubleValue() / 2),
                    (int) Math.round(((Number) at.get(1)).doubleValue() - ((Number) at.get(3)).doubleValue() / 2)).click().perform();
            wait.until(d -> (Long) js.executeScript("return window.sluiceGraphDrawn") > drawn);
            assertNoEdgeCrossesALabel(js);
        }
        assertThat(clicks).as("one level more, then none to add").isEqualTo(1);
        java.util.Set<String> walk = new java.util.TreeSet<>(List.of(mart));
        store.upstream(mart, 100).forEach(e -> walk.addAll(List.of(e.from(), e.to())));
        store.downstream(mart, 3).forEach(e -> walk.addAll(List.of(e.from(), e.to())));
        assertThat(new java.util.TreeSet<>(datasets(js))).isEqualTo(walk).contains("landing/airports/airports.csv");
        assertThat(js.executeScript("return window.sluiceGraph.getElementById('landing/airports/airports.csv').data('level')")).isEqualTo(-4L);
        assertThat(browser.findElement(By.id("graph-depth")).getText()).startsWith("upstream 4 level(s), downstream 3 level(s)");
        long drawn = (Long) js.executeScript("return window.sluiceGraphDrawn");
        browser.findElement(By.id("graph-all")).click();
        wait.until(d -> (Long) js.executeScript("return window.sluiceGraphDrawn") > drawn);
        assertThat(browser.findElement(By.id("graph-depth")).getText()).isEqualTo("upstream 100 level(s), downstream 100 level(s) (all of it)");
        assertNoEdgeCrossesALabel(js);
        shot(browser, shots, "6-deep-graph");
    }

    @SuppressWarnings("unchecked")
    private static List<String> datasets(org.openqa.selenium.JavascriptExecutor js) {
        return (List<String>) js.executeScript("return window.sluiceGraph.nodes('.dataset').map(n => n.id())");
    }

    /**
     * Reads, in model coordinates, every labelled node's label box and every edge's segments (source
     * endpoint, bend points, target endpoint) and asserts that no segment enters a label box (Liang-Barsky
     * clipping of the segment against the box shrunk by 0.5).
     */
    @SuppressWarnings("unchecked")
    private static void assertNoEdgeCrossesALabel(org.openqa.selenium.JavascriptExecutor js) {
        List<List<Object>> labels = (List<List<Object>>) js.executeScript("return window.sluiceGraph.nodes('.dataset, .expand').map(n => {"
                + " const b = n.boundingBox({ includeNodes: false, includeEdges: false, includeLabels: true }); return [n.id(), b.x1, b.y1, b.x2, b.y2]; })");
        List<List<Object>> edges = (List<List<Object>>) js.executeScript("return window.sluiceGraph.edges().map(e => {"
                + " const p = [e.sourceEndpoint(), ...(e.segmentPoints() ?? []), e.targetEndpoint()]; return [e.id(), ...p.flatMap(q => [q.x, q.y])]; })");
        assertThat(labels).as("label boxes").isNotEmpty().allSatisfy(l -> assertThat(d(l, 3)).isGreaterThan(d(l, 1)));
        assertThat(edges).isNotEmpty();
        for (List<Object> e : edges) {
            for (int i = 1; i + 3 < e.size(); i += 2) {
                for (List<Object> l : labels) {
                    boolean crosses = crosses(d(e, i), d(e, i + 1), d(e, i + 2), d(e, i + 3), d(l, 1) + 0.5, d(l, 2) + 0.5, d(l, 3) - 0.5, d(l, 4) - 0.5);
                    assertThat(crosses).as("edge %s segment %d crosses the label of %s %s", e.get(0), i / 2, l.get(0), e).isFalse();
                }
            }
        }
    }

    private static double d(List<Object> row, int i) {
        return ((Number) row.get(i)).doubleValue();
    }

    /** Whether the segment (x0,y0)-(x1,y1) meets the box [minX,maxX]×[minY,maxY] (Liang-Barsky). */
    static boolean crosses(double x0, double y0, double x1, double y1, double minX, double minY, double maxX, double maxY) {
        double t0 = 0, t1 = 1;
        double dx = x1 - x0, dy = y1 - y0;
        double[] p = {-dx, dx, -dy, dy};
        double[] q = {x0 - minX, maxX - x0, y0 - minY, maxY - y0};
        for (int k = 0; k < 4; k++) {
            if (p[k] == 0) {
                if (q[k] < 0) {
                    return false;
                }
            } else {
                double t = q[k] / p[k];
                if (p[k] < 0) {
                    t0 = Math.max(t0, t);
                } else {
                    t1 = Math.min(t1, t);
                }
                if (t0 > t1) {
                    return false;
                }
            }
        }
        return true;
    }

    // ---- end of issue 28 items 3 and 4: helpers ----

    /**
     * The home page answers "is everything all right?" at a glance. Over an empty warehouse it says
     * what to do; after a completed day (2001-01-03: the Bronze uniqueness check WARNED), a day whose
     * Gold gate failed (2001-02-22) and a hot-path partition 12 records behind, with the clock 38 h after
     * the newest publication (the daily datasets late), its pills count each problem in its colour,
     * the pipelines table shows the failed partition with its run, the datasets table puts the failed
     * check's dataset first, each name linking to its page and each failing check to its run, and
     * the hot-path table shows the lag. No Content-Security-Policy violation; screenshot {@code 0-home.png}.
     */
    @Test
    void theHomePageShowsWhatIsWrongAtAGlance() throws Exception {
        Path chromium = tool("sluice.chromium", "/usr/bin/chromium");
        Path chromedriver = tool("sluice.chromedriver", "/usr/bin/chromedriver");
        Path shots = Files.createDirectories(TestHome.projectRoot().resolve("app/target/screenshots"));
        Path specFile = TestHome.copyFlightsSpec(specDir);
        PipelineSpec good = TestHome.flightsSpec(TestHome.freshH2Url(), "sa", "");
        Files.writeString(specFile, Files.readString(specFile).replace("column: avg_delay_min, min_value: -120, max_value: 2880}",
                "column: avg_delay_min, min_value: -120, max_value: 5}"));
        PipelineSpec strict = new PipelineSpecLoader(TestHome.environment(TestHome.withSampleData(), good.warehouse().url(), "sa", "")
                .interpolator()).load(specFile);
        WebDriver browser = chromium(chromium, chromedriver);
        try (Warehouse w = Warehouse.open(good.warehouse())) {
            WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(20));
            try (LineageServer server = new LineageServer(new InetSocketAddress("127.0.0.1", 0), new LineageRepository(w.dsl()), null,
                    new CatalogApi(w.dsl(), good, Clock.systemUTC()), null)) {
                browser.get("http://127.0.0.1:" + server.port() + "/#/");
                wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("pills")));
                assertThat(browser.findElement(By.xpath("//div[@id='pipelines']//tr[td[1][text()='flights']]/td[2]")).getText())
                        .isEqualTo("no runs yet: sluice run flights --partition …");
                assertThat(browser.findElement(By.id("hot-path")).getText())
                        .isEqualTo("no hot-path consumer has stored a position yet: sluice hot-path flights");
                assertThat(browser.findElement(By.id("pill-failed_partitions")).getText()).isEqualTo("0 failed partition(s)");
                assertThat(browser.findElement(By.id("pill-hot_path_lag_records")).getAttribute("class")).isEqualTo("pill pill-none");
            }
            PipelineRunner runner = new PipelineRunner(w, TestHome.withSampleData());
            RunSummary run = runner.run(good, new Partition("2001-01-03"), RunOptions.plain());
            assertThat(run.status().name()).isEqualTo("COMPLETED");
            RunSummary failed = runner.run(strict, new Partition("2001-02-22"), RunOptions.plain());
            assertThat(failed.status().name()).isEqualTo("FAILED");
            w.dsl().insertInto(dev.sluice.warehouse.meta.HotOffsetTable.TABLE)
                    .set(org.jooq.impl.DSL.field(org.jooq.impl.DSL.name("group_id")), "flights-hot")
                    .set(org.jooq.impl.DSL.field(org.jooq.impl.DSL.name("topic")), "flights.events")
                    .set(org.jooq.impl.DSL.field(org.jooq.impl.DSL.name("kafka_partition")), 0)
                    .set(org.jooq.impl.DSL.field(org.jooq.impl.DSL.name("next_offset")), 8431L)
                    .set(org.jooq.impl.DSL.field(org.jooq.impl.DSL.name("lag_records")), 12L)
                    .set(org.jooq.impl.DSL.field(org.jooq.impl.DSL.name("updated_at")), java.time.OffsetDateTime.now(java.time.ZoneOffset.UTC)).execute();
            java.time.OffsetDateTime newest = w.dsl().select(org.jooq.impl.DSL.max(org.jooq.impl.DSL.field(org.jooq.impl.DSL.name("published_at"),
                    java.time.OffsetDateTime.class))).from(dev.sluice.warehouse.meta.PublishedPartitionTable.TABLE).fetchOne().value1();
            Clock clock = Clock.fixed(newest.toInstant().plus(Duration.ofHours(38)), java.time.ZoneOffset.UTC);
            try (LineageServer server = new LineageServer(new InetSocketAddress("127.0.0.1", 0), new LineageRepository(w.dsl()), TOKEN,
                    new CatalogApi(w.dsl(), good, clock), null)) {
                browser.get("http://127.0.0.1:" + server.port() + "/?token=" + TOKEN + "#/");
                wait.until(ExpectedConditions.visibilityOfElementLocated(By.id("datasets")));
                List<String> pills = browser.findElements(By.cssSelector("#pills .pill")).stream()
                        .map(p -> p.getText() + " | " + p.getAttribute("class")).toList();
                assertThat(pills).containsExactly("1 failed partition(s) | pill pill-red", "0 killed partition(s) | pill pill-green",
                        "0 stopped partition(s) | pill pill-green", "1 failed check(s) | pill pill-red", "2 warned check(s) | pill pill-amber",
                        "4 late dataset(s) | pill pill-amber", "0 killed backfill(s) | pill pill-green", "0 running backfill(s) | pill pill-green",
                        "12 record(s) of hot-path lag | pill pill-amber");

                List<WebElement> pipelines = browser.findElements(By.xpath("//div[@id='pipelines']//tbody/tr"));
                assertThat(pipelines).hasSize(1);
                List<WebElement> cells = pipelines.get(0).findElements(By.tagName("td"));
                assertThat(cells.get(0).getText()).isEqualTo("flights");
                WebElement newestRun = cells.get(1).findElement(By.tagName("a"));
                assertThat(newestRun.getText()).isEqualTo("2001-02-22 FAILED");
                assertThat(newestRun.getDomAttribute("href")).isEqualTo("#/run/" + failed.runId());
                assertThat(cells.get(2).getText()).isEqualTo("2001-01-03");
                assertThat(cells.get(3).getText()).isEqualTo("WARN");
                WebElement problem = cells.get(4).findElement(By.tagName("a"));
                assertThat(problem.getText()).isEqualTo("2001-02-22 FAILED");
                assertThat(problem.getDomAttribute("href")).isEqualTo("#/run/" + failed.runId());
                assertThat(cells.get(4).getText()).contains("check avg_delay_in_range (expect_column_values_to_be_between) failed: 165 of 221");
                assertThat(cells.get(5).getText()).isEqualTo("none");
                assertThat(cells.get(6).getText()).isEqualTo("none");

                // the datasets: the failed check's first, the warned and late ones next, each name a link to its page
                List<WebElement> names = browser.findElements(By.xpath("//div[@id='datasets']//tbody/tr/td[1]/a"));
                assertThat(names).extracting(WebElement::getText).containsExactly("gold.airport_daily_delays", "bronze.flights_raw",
                        "gold.airport_monthly_delays", "gold.route_daily", "silver.flights", "bronze.airports_raw",
                        "landing/airports/airports.csv", "landing/flights", "silver.airports");
                assertThat(names).extracting(a -> a.getDomAttribute("href")).containsExactly("#/dataset/gold.airport_daily_delays",
                        "#/dataset/bronze.flights_raw", "#/dataset/gold.airport_monthly_delays", "#/dataset/gold.route_daily",
                        "#/dataset/silver.flights", "#/dataset/bronze.airports_raw", "#/dataset/landing%2Fairports%2Fairports.csv",
                        "#/dataset/landing%2Fflights", "#/dataset/silver.airports");
                List<String> states = browser.findElements(By.xpath("//div[@id='datasets']//tbody/tr/td[2]")).stream().map(WebElement::getText).toList();
                assertThat(states).containsExactly("WARN", "-", "WARN", "WARN", "WARN", "-", "-", "-", "OK");
                List<WebElement> checks = browser.findElements(By.xpath("//div[@id='datasets']//tbody/tr/td[6]//a"));
                assertThat(checks).extracting(a -> a.getText() + " -> " + a.getDomAttribute("href")).containsExactly(
                        "2001-02-22 avg_delay_in_range FAILED -> #/run/" + failed.runId(),
                        "2001-02-22 no_exact_duplicates WARNED -> #/run/" + failed.runId(),
                        "2001-01-03 no_exact_duplicates WARNED -> #/run/" + run.runId());
                assertThat(checks.get(0).getAttribute("class")).isEqualTo("status-FAILED");
                assertThat(browser.findElement(By.xpath("//div[@id='hot-path']//tbody/tr")).getText()).startsWith("flights-hot flights.events 0 12 8431 ");
                // the pills stand above the pipelines table, side by side without overlapping
                WebElement table = browser.findElement(By.id("pipelines"));
                List<WebElement> boxes = browser.findElements(By.cssSelector("#pills .pill"));
                for (WebElement b : boxes) {
                    assertThat(b.getRect().getY() + b.getRect().getHeight()).isLessThanOrEqualTo(table.getRect().getY());
                }
                for (int i = 1; i < boxes.size(); i++) {
                    org.openqa.selenium.Rectangle a = boxes.get(i - 1).getRect();
                    org.openqa.selenium.Rectangle b = boxes.get(i).getRect();
                    boolean apart = a.getX() + a.getWidth() <= b.getX() || b.getX() + b.getWidth() <= a.getX()
                            || a.getY() + a.getHeight() <= b.getY() || b.getY() + b.getHeight() <= a.getY();
                    assertThat(apart).as("pill " + i + " and the one before do not overlap").isTrue();
                }
                shot(browser, shots, "0-home");
                // the search box stays: a search lists the datasets matching it
                WebElement search = browser.findElement(By.id("search"));
                search.sendKeys("route");
                search.submit();
                wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("results"), "gold.route_daily"));
                assertThat(cspViolations(browser)).as("the browser's log").isEmpty();
            }
        } finally {
            browser.quit();
        }
    }

    /**
     * The executable a system property names (else {@code fallback}); a missing one fails the test at
     * once with the command that installs it, never a skip.
     */
    private static Path tool(String property, String fallback) {
        Path p = Path.of(System.getProperty(property, fallback));
        if (!Files.isExecutable(p)) {
            throw new AssertionError(p + " is not an executable file: PageIT needs Chromium and its ChromeDriver."
                    + " Install them (Debian): sudo apt-get install chromium chromium-driver; elsewhere set -D" + property + "=<path>");
        }
        return p;
    }

    private static WebDriver chromium(Path binary, Path driver) {
        ChromeOptions o = new ChromeOptions();
        o.setBinary(binary.toString());
        o.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--window-size=1400,1000",
                "--user-data-dir=" + TestHome.projectRoot().resolve("app/target/chromium-profile-" + ProcessHandle.current().pid()));
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        o.setCapability(ChromeOptions.LOGGING_PREFS, logs);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(driver.toFile()).build();
        return new ChromeDriver(service, o);
    }

    /** The browser's log lines since the last call that report a Content-Security-Policy violation. */
    private static List<String> cspViolations(WebDriver browser) {
        return browser.manage().logs().get(LogType.BROWSER).getAll().stream().map(LogEntry::getMessage)
                .filter(m -> m.contains("Content Security Policy") || m.contains("Refused to")).toList();
    }

    private static void shot(WebDriver browser, Path dir, String name) throws Exception {
        byte[] png = ((org.openqa.selenium.TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES);
        Files.write(dir.resolve(name + ".png"), png);
    }
}
