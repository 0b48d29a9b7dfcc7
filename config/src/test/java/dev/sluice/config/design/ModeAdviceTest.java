package dev.sluice.config.design;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.config.SluiceEnvironment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice advise}: one declared requirement set per row of the table (docs/design.md, "Mode advice"),
 * each on the flights spec with only its {@code requirements} changed, with the expected mode, the
 * reasons and where the flights design (a hot path, batch layers, daily partitions) disagrees.
 */
class ModeAdviceTest {

    @TempDir
    Path dir;

    @Test
    void liveNumbersAndHistoryAreHybrid() throws Exception {
        ModeAdvice a = ModeAdvice.of(flights(null));
        assertThat(a.mode()).isEqualTo(ModeAdvice.Mode.HYBRID);
        assertThat(a.reasons()).containsExactly(
                "a latency of 30s (< 1 min) is needed: only a hot path delivers that",
                "warehouse-grade history is needed too: the batch path keeps versioned partitions, backfill and audit, and reconciles the live"
                        + " numbers after each load",
                "peak volume 20,000 rows/day");
        assertThat(a.disagreements()).isEmpty();
    }

    @Test
    void subMinuteWithoutHistoryIsStreamingAndNamesItsConsumersAboveTenThousandPerSecond() throws Exception {
        String requirements = "requirements:\n  latency: PT5S\n  peak_events_per_second: 40000\n  history: false\n";
        ModeAdvice a = ModeAdvice.of(flights(requirements));
        assertThat(a.mode()).isEqualTo(ModeAdvice.Mode.STREAMING);
        assertThat(a.reasons()).containsExactly("a latency of 5s (< 1 min) needs a hot path", "no warehouse history is needed, so no batch path",
                "the peak of 40,000 events/s is above 10,000/s: at the 7,100 events/s per consumer measured into H2 it needs 6 consumers, so"
                        + " the topic needs at least 6 partitions");
        assertThat(a.disagreements()).containsExactly(
                "batch layers are declared though no history is needed: a hybrid design, or drop the requirement");
    }

    @Test
    void aHotPathIntoPostgresqlIsSizedAtPostgresqlsMeasuredRate() throws Exception {
        String requirements = "requirements:\n  latency: PT5S\n  peak_events_per_second: 250000\n  history: true\n";
        ModeAdvice pg = ModeAdvice.of(flights(requirements, Map.of("SLUICE_WAREHOUSE_URL", "jdbc:postgresql://db.example:5432/warehouse")));
        assertThat(pg.mode()).isEqualTo(ModeAdvice.Mode.HYBRID);
        assertThat(pg.reasons()).contains("the peak of 250,000 events/s is above 10,000/s: at the 21,900 events/s per consumer measured into"
                + " PostgreSQL it needs 12 consumers, so the topic needs at least 12 partitions");
        ModeAdvice h2 = ModeAdvice.of(flights(requirements));
        assertThat(h2.reasons()).contains("the peak of 250,000 events/s is above 10,000/s: at the 7,100 events/s per consumer measured into"
                + " H2 it needs 36 consumers, so the topic needs at least 36 partitions");
        ModeAdvice batch = ModeAdvice.of(flights("requirements:\n  latency: PT6H\n  peak_events_per_second: 250000\n  history: true\n"));
        assertThat(batch.reasons()).as("a batch design has no consumers to size").noneMatch(s -> s.contains("consumer"));
    }

    @Test
    void minutesToAnHourIsMicroBatch() throws Exception {
        ModeAdvice a = ModeAdvice.of(flights("requirements:\n  latency: PT15M\n  peak_rows_per_day: 20000\n  history: true\n"));
        assertThat(a.mode()).isEqualTo(ModeAdvice.Mode.MICRO_BATCH);
        assertThat(a.mode().label()).isEqualTo("BATCH on an hourly or per-fire schedule (micro-batch)");
        assertThat(a.reasons()).containsExactly("a latency of 15m (≥ 1 min, < 1 h) is met by batch runs every hour or per fire: no hot path to"
                + " operate", "peak volume 20,000 rows/day");
        assertThat(a.disagreements()).containsExactly("a hot_path is declared though batch meets the latency: it is cost without benefit",
                "partitioning is daily: hourly or per_fire partitions meet a latency under an hour");
    }

    @Test
    void hoursOrDailyReportingIsBatch() throws Exception {
        ModeAdvice hours = ModeAdvice.of(flights("requirements:\n  latency: PT6H\n  history: true\n"));
        assertThat(hours.mode()).isEqualTo(ModeAdvice.Mode.BATCH);
        assertThat(hours.reasons()).containsExactly("a latency of 6h (≥ 1 h) is met by batch");
        assertThat(hours.disagreements()).containsExactly(
                "a hot_path is declared though no latency under a minute is needed: it is cost without benefit");
        ModeAdvice daily = ModeAdvice.of(flights("requirements:\n  history: true\n  reporting: daily\n"));
        assertThat(daily.mode()).as("daily reporting without a latency needs no sub-hour runs").isEqualTo(ModeAdvice.Mode.BATCH);
        assertThat(daily.reasons()).containsExactly("reporting is daily: batch loads of each partition meet it");
        ModeAdvice stricter = ModeAdvice.of(flights("requirements:\n  latency: PT20M\n  history: true\n  reporting: daily\n"));
        assertThat(stricter.mode()).as("a declared latency decides over the reporting cadence").isEqualTo(ModeAdvice.Mode.MICRO_BATCH);
    }

    /** The flights spec with its requirements replaced by {@code requirements} (null: as shipped). */
    private PipelineSpec flights(String requirements) throws Exception {
        return flights(requirements, Map.of());
    }

    /** As {@link #flights(String)}, the spec interpolated with {@code env}. */
    private PipelineSpec flights(String requirements, Map<String, String> env) throws Exception {
        Path project = root().resolve("pipelines");
        Files.createDirectories(dir.resolve("contracts"));
        for (String c : List.of("contracts/flights.v1.yaml", "contracts/airports.v1.yaml")) {
            Files.copy(project.resolve(c), dir.resolve(c), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        String spec = Files.readString(project.resolve("flights.yaml"));
        if (requirements != null) {
            var m = java.util.regex.Pattern.compile("(?s)requirements:\n(  [^\n]*\n)+").matcher(spec);
            assertThat(m.find()).isTrue();
            spec = m.replaceFirst(java.util.regex.Matcher.quoteReplacement(requirements));
        }
        Path file = Files.writeString(dir.resolve("flights.yaml"), spec);
        return new PipelineSpecLoader(new SluiceEnvironment(env).interpolator()).load(file);
    }

    private static Path root() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("pipelines/flights.yaml"))) {
                return d;
            }
        }
        throw new IllegalStateException("no project root");
    }
}
