package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The growth measure's check that a larger load is the smaller one scaled, and the report totals it reads. */
class GrowthCheckTest {

    private static final String REPORT = """
            2001-02-09   COMPLETED      16,401     16,401     16,396      5      0     3,396  47.83 s
            total                      491,935    491,935    491,897     37      1   102,061 1623.10 s
            backfill 01a2 COMPLETED: 30 partition(s) in 64.74 s wall time
            """;

    @Test
    void theTotalsAreReadFromTheRunReportsTotalsLine() {
        assertThat(BackfillBench.totals(REPORT)).containsExactly(491_935L, 491_935L, 491_897L, 37L, 1L, 102_061L);
        assertThat(BackfillBench.totals("2001-02-09   COMPLETED      16,401\n")).isEmpty();
    }

    @Test
    void aLoadThreeTimesLargerAgreesWhenEveryCountIsTripledAndTheMartsKeepTheirRows() {
        GrowthCheck.Size one = size(1, List.of(100L, 100L, 96L, 3L, 1L, 20L), 40, 96, 12.5);
        GrowthCheck.Size three = size(3, List.of(300L, 300L, 288L, 9L, 3L, 20L), 40, 288, 12.5 + 1e-12);
        assertThat(GrowthCheck.problems(one, three)).isEmpty();
    }

    @Test
    void everyCountThatIsNotScaledIsNamed() {
        GrowthCheck.Size one = size(1, List.of(100L, 100L, 96L, 3L, 1L, 20L), 40, 96, 12.5);
        GrowthCheck.Size three = size(3, List.of(300L, 300L, 289L, 8L, 3L, 21L), 41, 287, 12.6);
        assertThat(GrowthCheck.problems(one, three)).containsExactly(
                "Sluice Silver rows: 96 at 1×, 289 at 3× (expected 288)",
                "Sluice duplicates collapsed: 3 at 1×, 8 at 3× (expected 9)",
                "Sluice Gold rows: 20 at 1×, 21 at 3× (expected equal)",
                "DuckDB gold_route_daily rows: 40 at 1×, 41 at 3× (expected equal)",
                "DuckDB gold_route_daily flights: 96 at 1×, 287 at 3×",
                "DuckDB gold_route_daily summed averages: 12.500000000 at 1×, 12.600000000 at 3× (expected equal)");
        assertThat(GrowthCheck.problems(one, size(3, List.of(), 40, 288, 12.5))).containsExactly(
                "Sluice's run report has no totals line at 3×");
    }

    private static GrowthCheck.Size size(int n, List<Long> totals, long martRows, long flights, double avgSum) {
        return new GrowthCheck.Size(n, totals, Map.of("gold_route_daily", new GrowthCheck.Mart(martRows, flights, avgSum)));
    }
}
