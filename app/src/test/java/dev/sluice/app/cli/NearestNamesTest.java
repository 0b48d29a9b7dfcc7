package dev.sluice.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class NearestNamesTest {

    private static final List<String> PIPELINES = List.of("earthquakes", "flights", "la_riots");
    private static final List<String> DATASETS = List.of("gold.airport_daily_delays", "gold.airport_monthly_delays",
            "gold.airport_delays_live", "silver.flights", "landing/flights");

    @Test
    void theNearestNamesAtTheSmallestDistance() {
        assertThat(NearestNames.of("flihgts", PIPELINES)).containsExactly("flights");
        assertThat(NearestNames.of("FLIGHTS", PIPELINES)).containsExactly("flights");
        assertThat(NearestNames.of("gold.airport_daly_delays", DATASETS)).containsExactly("gold.airport_daily_delays");
        assertThat(NearestNames.of("weather", PIPELINES)).isEmpty();
        assertThat(NearestNames.of("ab", List.of("ac", "ad", "ae", "af"))).containsExactly("ac", "ad", "ae");
    }

    @Test
    void aSuggestionNamesTheNearestElseEveryKnownName() {
        assertThat(NearestNames.suggestion("flihgts", PIPELINES)).isEqualTo("; did you mean flights?");
        assertThat(NearestNames.suggestion("ab", List.of("ac", "ad"))).isEqualTo("; did you mean ac or ad?");
        assertThat(NearestNames.suggestion("ab", List.of("ac", "ad", "ae"))).isEqualTo("; did you mean ac, ad or ae?");
        assertThat(NearestNames.suggestion("weather", PIPELINES)).isEqualTo("; known: earthquakes, flights, la_riots");
        assertThat(NearestNames.suggestion("weather", List.of())).isEqualTo("; none is known");
    }
}
