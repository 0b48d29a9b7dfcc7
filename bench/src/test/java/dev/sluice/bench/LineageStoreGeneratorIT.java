package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.WarehouseSpec;
import dev.sluice.lineage.store.LineageRepository;
import dev.sluice.lineage.store.LineageRepository.Impacted;
import dev.sluice.warehouse.Warehouse;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The generated store of the lineage-at-scale bench holds what its javadoc says, counted by hand:
 * 12,000 runs are hours 0–23 of 2026-01-01 for the 120 pipelines (ingest, refine, audit, join each
 * hour; the snapshot at 00; the daily rollup at 23) and 48 pipelines' first 5 runs of the next day;
 * and the lineage queries find the graph's fan-out, the cross-pipeline join and the daily range.
 */
class LineageStoreGeneratorIT {

    @Test
    void twelveThousandRunsAreADayOfTheHundredAndTwentyPipelines() throws Exception {
        try (Warehouse w = Warehouse.open(new WarehouseSpec("jdbc:h2:mem:generator-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa", ""))) {
            LineageStoreGenerator.Store store = LineageStoreGenerator.generate(w, 12_000);

            // ingested: 24 hours × 120 + 48, every 100th a FAIL (29) without an edge
            assertThat(store).isEqualTo(new LineageStoreGenerator.Store(12_000, 2_928, 2_899 + 168 + 2 * 2_928 + 2_928 + 4 * 2_928 + 120,
                    2 * 2_928, 12_000, 9 * 120 + 120, 25));
            assertThat(w.dsl().fetchCount(LineageRepository.EDGES)).isEqualTo(23_683);
            assertThat(w.dsl().fetchCount(dev.sluice.lineage.store.LineageRuns.RUNS,
                    org.jooq.impl.DSL.field(org.jooq.impl.DSL.name("state")).eq("FAIL"))).isEqualTo(29);

            LineageRepository repo = new LineageRepository(w.dsl());
            assertThat(repo.downstream("raw.p000_orders", 10)).extracting(e -> e.from() + " -> " + e.to() + " (" + e.job() + ")").containsExactly(
                    "raw.p000_orders -> silver.p000_orders (p000)",
                    "silver.p000_orders -> audit.p000_orders_checks (p000)",
                    "silver.p000_orders -> gold.p000_margin (p000)",
                    "silver.p000_orders -> gold.p000_revenue (p000)",
                    "silver.p000_orders -> gold.p001_margin (p001)",
                    "silver.p000_orders -> gold.p001_revenue (p001)",
                    "gold.p000_revenue -> gold.p000_revenue_daily (p000)",
                    "gold.p001_revenue -> gold.p001_revenue_daily (p001)");
            assertThat(repo.impact("raw.p000_orders", "2026-01-01T12")).containsExactly(
                    new Impacted("silver.p000_orders", "2026-01-01T12", "p000", 1),
                    new Impacted("audit.p000_orders_checks", "2026-01-01T12", "p000", 2),
                    new Impacted("gold.p000_margin", "2026-01-01T12", "p000", 2),
                    new Impacted("gold.p000_revenue", "2026-01-01T12", "p000", 2),
                    new Impacted("gold.p001_margin", "2026-01-01T12", "p001", 2),
                    new Impacted("gold.p001_revenue", "2026-01-01T12", "p001", 2),
                    new Impacted("gold.p000_revenue_daily", "2026-01-01", "p000", 3),
                    new Impacted("gold.p001_revenue_daily", "2026-01-01", "p001", 3));
            assertThat(repo.impact("raw.p000_customers", "none")).as("the snapshot feeds every hour of the refine: 24 of the first day, 00 of the next")
                    .filteredOn(i -> i.level() == 1).hasSize(25);
        }
    }
}
