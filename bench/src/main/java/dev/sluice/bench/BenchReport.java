package dev.sluice.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * {@code benchmarks.md} from a {@link BenchSuite} report: the machine, the table (measure, Sluice,
 * baseline, ratio, goal; medians with the spread of the repeats) and the notes kept in
 * {@code benchmarks-notes.md} beside this class (how each baseline was built, where the time goes).
 * Stateless.
 */
final class BenchReport {

    private BenchReport() {
    }

    static String markdown(ObjectNode report) {
        StringBuilder md = new StringBuilder();
        JsonNode m = report.get("machine");
        md.append("# Benchmarks: Sluice against the baselines\n\n")
                .append("Written by `./sluice-bench` (").append(report.get("smoke").asBoolean() ? "smoke run" : "full run")
                .append(") from ").append(report.get("started_at").asText()).append(" to ").append(report.path("ended_at").asText())
                .append("; every figure also in `benchmarks.json`, with each repeat.\n\n")
                .append("Machine: ").append(m.get("cores").asInt()).append(" cores, ").append(m.get("memory").asText()).append(", ")
                .append(m.get("jvm").asText()).append(" (bench JVM max heap ").append(m.path("max_heap_mb").asLong()).append(" MiB), ")
                .append(m.get("os").asText()).append(".\n\n")
                .append("Data: the flights of vega-datasets 3.2.1 (`flights-3m.parquet`, split per flight date by `sluice sample-data`), ")
                .append(report.get("days").asInt()).append(" days from ").append(report.get("from").asText()).append(" to ")
                .append(report.get("to").asText()).append(". In-process measures: ").append(report.get("repeats").asInt())
                .append(" repeat(s) after a warm-up; whole-process measures: ").append(report.get("process_repeats").asInt())
                .append(" repeat(s). Values are medians, [min–max] over the repeats; ratio = Sluice ÷ baseline of the medians.\n\n")
                .append("| measure | Sluice | baseline | ratio | goal | met |\n|---|---|---|---|---|---|\n");
        for (JsonNode r : report.get("rows")) {
            md.append("| ").append(r.get("measure").asText()).append(" | ").append(figure(r, "sluice")).append(" | ");
            if (r.path("met").isNull()) {
                md.append(r.get("baseline").asText()).append(" | —");
            } else if (r.has("baseline_median")) {
                md.append(r.get("baseline").asText()).append(": ").append(figure(r, "baseline")).append(" | ")
                        .append(String.format(Locale.ROOT, "%.3g×", r.get("ratio").asDouble()));
            } else {
                md.append("— | —");
            }
            md.append(" | ").append(r.get("goal").asText()).append(" | ").append(met(r)).append(" |\n");
        }
        md.append('\n').append(warmUps(report.get("details"))).append(notes());
        return md.toString();
    }

    /** The warm-ups, reported apart from the medians. */
    private static String warmUps(JsonNode d) {
        StringBuilder w = new StringBuilder("Warm-ups (run first, not in the medians):");
        if (d.has("bronze")) {
            JsonNode b = d.at("/bronze/warmUp");
            w.append(String.format(Locale.ROOT, " Bronze ingest %,.0f rows/s (Sluice, one stream), %,.0f rows/s (Sluice, partitioned),"
                    + "%s %,.0f rows/s (Spring Batch) and %,.0f rows/s (Spring Batch, reWriteBatchedInserts);", b.path("SLUICE").asDouble(),
                    b.path("SLUICE_PARTITIONED").asDouble(), b.has("SLUICE_LAKEHOUSE")
                            ? String.format(Locale.ROOT, " %,.0f rows/s (Sluice, lakehouse),", b.path("SLUICE_LAKEHOUSE").asDouble()) : "",
                    b.path("BASELINE").asDouble(), b.path("BASELINE_REWRITE").asDouble()));
        }
        if (d.has("duckdb_warm_up_s")) {
            w.append(String.format(Locale.ROOT, " DuckDB medallion %.1f s;", d.get("duckdb_warm_up_s").asDouble()));
        }
        if (d.has("overhead")) {
            w.append(String.format(Locale.ROOT, " orchestration %.1f ms per partition (20 partitions);",
                    d.at("/overhead/warmUpMsPerPartition").asDouble()));
        }
        if (d.has("hotpath")) {
            w.append(" hot path p99 over the first 20 % of each latency run ").append(d.at("/hotpath/warmUpP99Ms")).append(" ms;");
        }
        if (d.has("lineage")) {
            w.append(String.format(Locale.ROOT, " lineage closure, first call on a fresh store %.1f ms.", d.at("/lineage/cold_first_call_ms").asDouble()));
        }
        return w.append(" Whole-process measures include the JVM's and Spark's start, alike for both sides.\n\n").toString();
    }

    /** The met column: yes, no, or not measured (a row whose baseline was skipped). */
    private static String met(JsonNode r) {
        return r.path("met").isNull() ? "not measured" : r.get("met").asBoolean() ? "yes" : "**no**";
    }

    private static String figure(JsonNode r, String side) {
        double med = r.get(side + "_median").asDouble();
        double lo = r.get(side + "_min").asDouble();
        double hi = r.get(side + "_max").asDouble();
        return lo == hi ? number(med) : number(med) + " [" + number(lo) + "–" + number(hi) + "]";
    }

    private static String number(double v) {
        return Math.abs(v) >= 100 ? String.format(Locale.ROOT, "%,.0f", v) : String.format(Locale.ROOT, "%.3g", v);
    }

    private static String notes() {
        try (InputStream in = BenchReport.class.getResourceAsStream("benchmarks-notes.md")) {
            return in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
