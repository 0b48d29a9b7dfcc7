package dev.sluice.operations.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.batch.testkit.TestHome;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.config.SluiceEnvironment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * The committed design documents ({@code docs/pipelines/<pipeline>.md}) are current: each shipped
 * pipeline's spec-derived part, regenerated from its spec in a fixed environment (no variables, so
 * every {@code ${VAR:-default}} takes its default and {@code SLUICE_HOME} is {@code ./var}), equals
 * the committed file without its run-derived part. Run with {@code -Dsluice.docs.update=true} to
 * rewrite the files instead.
 */
class DesignDocumentTest {

    /** Set to true to rewrite the committed documents from the specs. */
    static final String UPDATE_PROPERTY = "sluice.docs.update";
    private static final String REFRESH = "cd <project root> && mvn -B -o test -pl operations -am -Dtest=DesignDocumentTest"
            + " -Dsurefire.failIfNoSpecifiedTests=false -D" + UPDATE_PROPERTY + "=true   (or: sluice docs %s --no-runs --out docs/pipelines/%s.md"
            + " with no SLUICE_* variables set)";

    @ParameterizedTest
    @ValueSource(strings = {"flights", "flights_lake", "earthquakes", "la_riots"})
    void committedDocumentIsCurrent(String pipeline) throws IOException {
        String generated = DesignDocument.render(spec(pipeline), home(), null);
        Path file = TestHome.projectRoot().resolve("docs/pipelines/" + pipeline + ".md");
        if (Boolean.getBoolean(UPDATE_PROPERTY)) {
            Files.createDirectories(file.getParent());
            Files.writeString(file, generated);
        }
        assertThat(file).as("docs/pipelines/%s.md is missing; generate it: " + REFRESH, pipeline, pipeline, pipeline).isRegularFile();
        assertThat(DesignDocument.specDerived(Files.readString(file)))
                .as("docs/pipelines/%s.md is not what the spec generates now; refresh it: " + REFRESH, pipeline, pipeline, pipeline)
                .isEqualTo(DesignDocument.specDerived(generated));
    }

    @Test
    void flightsDocumentStatesTheSpec() {
        String doc = DesignDocument.render(spec("flights"), home(), null);
        assertThat(doc).startsWith("# Pipeline `flights`\n")
                .contains("bronze_flights_raw --> silver_flights")
                .contains("landing_flights --> bronze_flights_raw")
                .contains("silver_airports -. reads .-> silver_flights")
                .contains("topic_flights_events --> bronze_flight_events")
                .contains("bronze_flight_events --> gold_airport_delays_live")
                .contains("silver_airports[\"silver.airports (reference snapshot)\"]")
                .contains("- tier 2: 99.5 % availability, at most 3.65 h of downtime in a 730-hour month")
                .contains("schedule: cron `0 30 2 * * ?` in time zone UTC")
                .contains("freshness check: every PT12H")
                .contains("webhook not configured")
                .contains("| `gold.airport_daily_delays` | flights-data-team |")
                .contains("Advice: **HYBRID (hot path + batch, reconciled)**")
                .contains("The declared design agrees with the advice.")
                .contains("| `bronze.flights_raw` | bronze | daily | append, raw rows kept at least P10000D | - |")
                .contains("All design rules hold")
                .contains("sluice run flights --partition 2001-07-01\n")
                .contains("sluice backfill flights --changed silver.flights --from 2001-07-01 --to 2001-07-31")
                .contains("sluice rollback flights gold.airport_monthly_delays --partition 2001-07 --reason")
                .contains("sluice rollback flights silver.airports --partition none --reason")
                .contains("sluice replay flights --from-time 2001-07-01T00:00:00Z")
                .contains("landing: `${SLUICE_HOME}/landing/flights/dt={partition}`")
                .contains("| `delay_out_of_range` | `delay < -120 OR delay > 2880` | delay_min is outside [-120, 2880] minutes | 0.1 % | error |")
                .contains("check `reconcile_airport_daily_delays`, severity warn")
                .doesNotContain(DesignDocument.RUN_DERIVED_START);
        for (String rule : List.of("required_value_missing", "delay_out_of_range", "distance_not_positive", "unknown_airport")) {
            assertThat(doc).contains("| `" + rule + "` |");
        }
        assertThat(doc.indexOf("## Mode")).isLessThan(doc.indexOf("## Flow"));
        assertThat(doc.indexOf("## Flow")).isLessThan(doc.indexOf("## Contracts"));
        assertThat(doc.indexOf("## Contracts")).isLessThan(doc.indexOf("## Quality gates"));
        assertThat(doc.indexOf("## Quality gates")).isLessThan(doc.indexOf("## Idempotency and replay"));
        assertThat(doc.indexOf("## Idempotency and replay")).isLessThan(doc.indexOf("## Lineage"));
        assertThat(doc.indexOf("## Lineage")).isLessThan(doc.indexOf("## Procedures"));
        assertThat(doc.indexOf("## Procedures")).isLessThan(doc.indexOf("## Monitoring"));
        assertThat(doc.indexOf("## Monitoring")).isLessThan(doc.indexOf("## Ownership"));
        assertThat(doc.indexOf("## Ownership")).isLessThan(doc.indexOf("## Design rules"));
    }

    @Test
    void laRiotsDocumentShowsPiiPoliciesAndMaskedLineage() {
        String doc = DesignDocument.render(spec("la_riots"), home(), null);
        assertThat(doc).contains("| `first_name` | string | no | PII: hash | - | - | - |")
                .contains("| `longitude` | double | yes | PII: drop | - | -180 | 180 |")
                .contains("| `first_name_token` | bronze.la_riots_raw.first_name (masked) | IDENTITY |")
                .contains("partition_value_missing")
                .contains("- tier 3: 99.0 % availability, at most 7.3 h of downtime in a 730-hour month")
                .contains("Advice: **BATCH**.")
                .contains("| `gold.la_riots_by_neighborhood` | civic-data-team |")
                .contains("Partitions inside the backfill window (P20000D) are never purged.");
    }

    @Test
    void runDerivedPartIsDelimitedAndLeftOutOfTheComparison() {
        OffsetDateTime t = OffsetDateTime.parse("2026-01-02T03:04:05Z");
        RunHistory h = new RunHistory(List.of(new RunHistory.Run("r-1", "2001-07-01", 0, "COMPLETED", t, t.plusSeconds(75),
                100L, 99L, 12L, 1L)), List.of("2001-07-01"),
                List.of(new RunHistory.CheckHistory("silver.flights", "TRANSFORM", "delay_plausible", Map.of("2001-07-01", "PASSED"))));
        String withRuns = DesignDocument.render(spec("flights"), home(), h);
        String without = DesignDocument.render(spec("flights"), home(), null);
        assertThat(withRuns).contains(DesignDocument.RUN_DERIVED_START, DesignDocument.RUN_DERIVED_END,
                "| 2001-07-01 | 0 | `r-1` | COMPLETED | 2026-01-02 03:04:05Z | 1m 15s | 100 / 99 / 12 | 1 |",
                "| `silver.flights` | transform | `delay_plausible` | PASSED |");
        assertThat(DesignDocument.specDerived(withRuns)).isEqualTo(without);
        assertThat(DesignDocument.render(spec("flights"), home(), new RunHistory(List.of(), List.of(), List.of()))).isEqualTo(without);
    }

    private static PipelineSpec spec(String pipeline) {
        return PipelineSpecLoader.forInspection(new SluiceEnvironment(Map.of()).interpolator())
                .load(TestHome.projectRoot().resolve("pipelines/" + pipeline + ".yaml"));
    }

    private static Path home() {
        return new SluiceEnvironment(Map.of()).home();
    }
}
