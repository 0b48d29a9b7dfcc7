package dev.sluice.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the growth measure's loads of the flights N× larger ({@link FlightsScaler}) must give
 * against a smaller scale: every row count of Sluice's run report ×N (read, Bronze, Silver,
 * duplicates collapsed, quarantined; a duplicate's copies stay duplicates), its Gold rows equal
 * (the same days, airports and routes); each of DuckDB's marts with equal rows, summed
 * {@code flights} ×N and summed {@code avg_delay_min} equal within 1e-9 relative (the sums run in
 * another order). Stateless.
 */
final class GrowthCheck {

    /** One mart: rows, summed {@code flights}, summed {@code avg_delay_min}. */
    record Mart(long rows, long flights, double avgSum) {
    }

    /**
     * One size's results.
     *
     * @param scale N
     * @param sluice the totals of Sluice's run report ({@link BackfillBench#totals}: read, Bronze,
     *     Silver, duplicates, quarantined, Gold)
     * @param duckdb DuckDB's marts by table ({@link DuckDbMedallion#marts})
     */
    record Size(int scale, List<Long> sluice, Map<String, Mart> duckdb) {
        Size {
            sluice = List.copyOf(sluice);
            duckdb = Map.copyOf(duckdb);
        }
    }

    private static final List<String> TOTALS = List.of("rows read", "Bronze rows", "Silver rows", "duplicates collapsed", "rows quarantined");

    private GrowthCheck() {
    }

    /** Every way {@code large} disagrees with {@code small} scaled; empty when it agrees in all. */
    static List<String> problems(Size small, Size large) {
        List<String> out = new ArrayList<>();
        int s = small.scale();
        int l = large.scale();
        if (small.sluice().size() != 6 || large.sluice().size() != 6) {
            out.add("Sluice's run report has no totals line at " + (small.sluice().size() != 6 ? s : l) + "×");
        } else {
            for (int i = 0; i < TOTALS.size(); i++) {
                long a = small.sluice().get(i);
                long b = large.sluice().get(i);
                if (b * s != a * l) {
                    out.add(String.format(Locale.ROOT, "Sluice %s: %,d at %d×, %,d at %d× (expected %,d)", TOTALS.get(i), a, s, b, l, a / s * l));
                }
            }
            if (!small.sluice().get(5).equals(large.sluice().get(5))) {
                out.add(String.format(Locale.ROOT, "Sluice Gold rows: %,d at %d×, %,d at %d× (expected equal)",
                        small.sluice().get(5), s, large.sluice().get(5), l));
            }
        }
        out.addAll(martProblems(small.duckdb(), s, large.duckdb(), l));
        return out;
    }

    /** Every way the marts {@code large} (at {@code l}×) disagree with {@code small} (at {@code s}×) scaled. */
    static List<String> martProblems(Map<String, Mart> small, int s, Map<String, Mart> large, int l) {
        List<String> out = new ArrayList<>();
        small.forEach((table, a) -> {
            Mart b = large.get(table);
            if (b == null) {
                out.add("DuckDB " + table + ": missing at " + l + "×");
                return;
            }
            if (a.rows() != b.rows()) {
                out.add(String.format(Locale.ROOT, "DuckDB %s rows: %,d at %d×, %,d at %d× (expected equal)", table, a.rows(), s, b.rows(), l));
            }
            if (b.flights() * s != a.flights() * l) {
                out.add(String.format(Locale.ROOT, "DuckDB %s flights: %,d at %d×, %,d at %d×", table, a.flights(), s, b.flights(), l));
            }
            if (Math.abs(a.avgSum() - b.avgSum()) > 1e-9 * Math.abs(a.avgSum())) {
                out.add(String.format(Locale.ROOT, "DuckDB %s summed averages: %.9f at %d×, %.9f at %d× (expected equal)",
                        table, a.avgSum(), s, b.avgSum(), l));
            }
        });
        return out;
    }
}
