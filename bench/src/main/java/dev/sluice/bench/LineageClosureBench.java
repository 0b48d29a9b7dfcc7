package dev.sluice.bench;

import dev.sluice.config.WarehouseSpec;
import dev.sluice.lineage.store.LineageRepository;
import dev.sluice.warehouse.Warehouse;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.function.IntSupplier;
import org.jooq.DSLContext;
import org.jooq.impl.DSL;

/**
 * Lineage queries over a large store: {@code runs} step runs of the flights graph (6 dataset edges
 * each, over 182 daily partitions) in a fresh H2 warehouse, then the downstream closure of
 * {@code landing/flights}, the upstream closure of {@code gold.route_daily} and the impact of the
 * airports snapshot, each timed over repeats after a warm-up (median and p90 in ms).
 * Run: {@code mvn -q -pl bench exec:java -Dexec.mainClass=dev.sluice.bench.LineageClosureBench -Dexec.args=10000}.
 */
public final class LineageClosureBench {

    private static final String[][] GRAPH = {
        {"landing/flights", "bronze.flights_raw", "flights.bronze.flights_raw"},
        {"bronze.flights_raw", "silver.flights", "flights.silver.flights"},
        {"silver.airports", "silver.flights", "flights.silver.flights"},
        {"silver.flights", "gold.airport_daily_delays", "flights.gold.airport_daily_delays"},
        {"silver.flights", "gold.route_daily", "flights.gold.route_daily"},
        {"bronze.airports_raw", "silver.airports", "flights.silver.airports"},
    };

    private LineageClosureBench() {
    }

    public static void main(String[] args) {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        String url = "jdbc:h2:mem:lineage-bench-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
        try (Warehouse w = Warehouse.open(new WarehouseSpec(url, "sa", ""))) {
            DSLContext dsl = w.dsl();
            long t0 = System.nanoTime();
            load(dsl, runs);
            System.out.printf(Locale.ROOT, "loaded %d runs (%d edges) in %.1f s%n", runs, runs * GRAPH.length,
                    (System.nanoTime() - t0) / 1e9);
            LineageRepository repo = new LineageRepository(dsl);
            report("downstream closure of landing/flights", () -> repo.downstream("landing/flights", 10).size());
            report("upstream closure of gold.route_daily", () -> repo.upstream("gold.route_daily", 10).size());
            report("impact of silver.airports (snapshot)", () -> repo.impact("silver.airports", "none").size());
            report("impact of bronze.flights_raw 2001-03-01", () -> repo.impact("bronze.flights_raw", "2001-03-01").size());
        }
    }

    static void load(DSLContext dsl, int runs) {
        var insert = dsl.insertInto(LineageRepository.EDGES,
                DSL.field(DSL.name("run_id")), DSL.field(DSL.name("job")), DSL.field(DSL.name("partition_key")),
                DSL.field(DSL.name("input_namespace")), DSL.field(DSL.name("input_name")), DSL.field(DSL.name("output_namespace")),
                DSL.field(DSL.name("output_name")), DSL.field(DSL.name("output_version")), DSL.field(DSL.name("event_time")))
                .values((Object) null, null, null, null, null, null, null, null, null);
        var batch = dsl.batch(insert);
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        for (int r = 0; r < runs; r++) {
            String day = LocalDate.parse("2001-01-01").plusDays(r % 182).toString();
            String run = UUID.randomUUID().toString();
            for (String[] e : GRAPH) {
                String partition = e[1].equals("silver.airports") ? "none" : day;
                batch = batch.bind(run, e[2], partition, "h2:mem", e[0], "h2:mem", e[1], Integer.toString(r / 182 + 1), now);
            }
            if (r % 2000 == 1999) {
                batch.execute();
                batch = dsl.batch(insert);
            }
        }
        if (batch.size() > 0) {
            batch.execute();
        }
        LineageStoreGenerator.graphFromEdges(dsl); // the dataset graph the closures walk, as the store keeps it with its edges
    }

    private static void report(String what, IntSupplier query) {
        int result = 0;
        for (int i = 0; i < 5; i++) {
            result = query.getAsInt();
        }
        int repeats = 21;
        double[] ms = new double[repeats];
        for (int i = 0; i < repeats; i++) {
            long t = System.nanoTime();
            result = query.getAsInt(); // every measured call returns the same count: kept, so no call is dead code
            ms[i] = (System.nanoTime() - t) / 1e6;
        }
        Arrays.sort(ms);
        System.out.printf(Locale.ROOT, "%-42s %6d results  median %7.1f ms  p90 %7.1f ms  (5 warm-up, %d measured)%n", what, result,
                ms[repeats / 2], ms[(int) (repeats * 0.9)], repeats);
    }
}
