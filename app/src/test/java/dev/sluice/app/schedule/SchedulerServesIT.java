package dev.sluice.app.schedule;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.testkit.TestHome;
import java.io.File;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice scheduler --serve-port P} (a real process through the launcher): while it loads its
 * per-fire partitions it serves the page, the catalog API and the metrics of those loads, with the
 * token; SIGTERM stops both.
 */
class SchedulerServesIT {

    @TempDir
    Path home;

    @Test
    void theSchedulerServesThePageAndTheMetricsOfItsLoads() throws Exception {
        Path spec = TicksPipeline.write(home, "per_fire", "cron: \"0/2 * * * * ?\", time_zone: UTC", 2);
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        File log = home.resolve("scheduler.log").toFile();
        ProcessBuilder pb = new ProcessBuilder("bash", TestHome.projectRoot().resolve("sluice").toString(), "scheduler", "--pipeline",
                spec.toString(), "--serve-port", Integer.toString(port)).redirectErrorStream(true).redirectOutput(log);
        pb.environment().put("SLUICE_HOME", home.toString());
        pb.environment().put("SLUICE_WAREHOUSE_URL", TestHome.freshH2Url());
        pb.environment().put("SLUICE_API_TOKEN", "sched-t0ken");
        Process p = pb.start();
        try {
            String metrics = "http://127.0.0.1:" + port + "/actuator/prometheus";
            Waits.until("the scheduler serves the metrics of a completed load", Duration.ofSeconds(90),
                    () -> get(metrics, "sched-t0ken").body().contains("sluice_runs{pipeline=\"ticks\",status=\"COMPLETED\"}"));
            assertThat(get("http://127.0.0.1:" + port + "/", null).body()).contains("<title>Sluice: datasets, lineage and runs</title>");
            // the lineage of its own loads, live, and as the completed ones recorded it: this process ran every load of this
            // fresh warehouse, and a load records its counts after its emitter closed, so the live count is never below
            String scrape = get(metrics, "sched-t0ken").body();
            assertThat(scrape).contains("sluice_lineage_queue_depth ").contains("sluice_lineage_events_total{outcome=\"dropped\"} 0.0")
                    .contains("sluice_lineage_run_events_total{outcome=\"dropped\",pipeline=\"ticks\"} 0.0");
            double recorded = sample(scrape, "sluice_lineage_run_events_total{outcome=\"sent\",pipeline=\"ticks\"}");
            assertThat(recorded).isPositive();
            assertThat(sample(scrape, "sluice_lineage_events_total{outcome=\"sent\"}")).isGreaterThanOrEqualTo(recorded);
            assertThat(get(metrics, null).statusCode()).as("the token is required").isEqualTo(401);
            HttpResponse<String> gold = get("http://127.0.0.1:" + port + "/api/v1/datasets/gold.tick_weight", "sched-t0ken");
            assertThat(gold.statusCode()).isEqualTo(200);
            assertThat(gold.body()).contains("\"from\":\"silver.ticks\",\"to\":\"gold.tick_weight\"");
            assertThat(Files.readString(log.toPath())).contains("sluice scheduler: serving http://127.0.0.1:" + port + "/");
        } finally {
            p.destroy(); // SIGTERM
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(p.exitValue()).as("log:%n%s", Files.readString(log.toPath())).isIn(0, 143);
    }

    /** The value of the sample {@code key} ("name{tags}") in a Prometheus text exposition. */
    private static double sample(String scrape, String key) {
        String line = scrape.lines().filter(l -> l.startsWith(key + " ")).findFirst().orElseThrow(() -> new AssertionError("no " + key
                + " in\n" + scrape));
        return Double.parseDouble(line.substring(key.length() + 1));
    }

    private static HttpResponse<String> get(String url, String token) {
        try {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
            if (token != null) {
                b.header("Authorization", "Bearer " + token);
            }
            return HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException e) {
            return new Unreachable(url); // not listening yet
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The answer while nothing listens: status 0, empty body. */
    private record Unreachable(String url) implements HttpResponse<String> {
        public int statusCode() {
            return 0;
        }

        public HttpRequest request() {
            return HttpRequest.newBuilder(URI.create(url)).build();
        }

        public java.util.Optional<HttpResponse<String>> previousResponse() {
            return java.util.Optional.empty();
        }

        public java.net.http.HttpHeaders headers() {
            return java.net.http.HttpHeaders.of(java.util.Map.of(), (a, b) -> true);
        }

        public String body() {
            return "";
        }

        public java.util.Optional<javax.net.ssl.SSLSession> sslSession() {
            return java.util.Optional.empty();
        }

        public URI uri() {
            return URI.create(url);
        }

        public HttpClient.Version version() {
            return HttpClient.Version.HTTP_1_1;
        }
    }
}
