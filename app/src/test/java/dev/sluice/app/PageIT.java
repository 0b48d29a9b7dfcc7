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

                    browser.get(base + "/#/backfill/" + report.backfillId());
                    wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), "Backfill " + report.backfillId()));
                    var planned = report.outcomes().stream().filter(o -> o.partition().key().equals("2001-01-02")).findFirst().orElseThrow();
                    String row = browser.findElement(By.xpath("//div[@id='partitions']//tr[td[text()='2001-01-02']]")).getText();
                    assertThat(row).contains("COMPLETED").contains(planned.summary().runId().toString());
                    assertThat(browser.findElement(By.id("view")).getText()).contains("{\"COMPLETED\":1}");
                    shot(browser, shots, "5-backfill");

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
