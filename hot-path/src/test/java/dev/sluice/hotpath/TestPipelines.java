package dev.sluice.hotpath;

import dev.sluice.config.PipelineSpec;
import dev.sluice.config.PipelineSpecLoader;
import dev.sluice.config.SluiceEnvironment;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/** Small pipelines written into a test's home for the hot path's database-level tests. */
final class TestPipelines {

    /** A contract of every column type (a timestamp {@code at} for the event time, a string {@code code} to group by). */
    static final String ALL_TYPES = """
            columns:
              - {name: at, type: timestamp, nullable: false}
              - {name: code, type: string, nullable: false}
              - {name: note, type: string}
              - {name: i, type: int}
              - {name: l, type: long}
              - {name: f, type: float, lossy: true}
              - {name: d, type: double, lossy: true}
              - {name: b, type: boolean}
              - {name: on_day, type: date}
              - {name: ts, type: timestamp}
              - {name: amount, type: "decimal(12,3)"}
            """;

    /** A contract of an event time {@code at}, a group {@code code} and a value {@code v} (long). */
    static final String CODED_VALUES = """
            columns:
              - {name: at, type: timestamp, nullable: false}
              - {name: code, type: string, nullable: false}
              - {name: v, type: long}
            """;

    private TestPipelines() {
    }

    /**
     * {@code count} events of {@link #ALL_TYPES} as JSON, event n at 2001-01-01 00:mm:ss plus n's
     * microseconds, {@code code} one of {@code A}, a tab, a quote; every 7th (n % 7 == 3) with its
     * other values null, the others with note {@code texts[n % texts.length]}, extreme ints and
     * longs, microsecond timestamps, decimals and {@code d} as {@code doubleText} gives it.
     */
    static List<String> allTypesJson(int count, String[] texts, IntFunction<String> doubleText) throws IOException {
        ObjectMapper json = new ObjectMapper();
        List<String> out = new ArrayList<>();
        for (int n = 0; n < count; n++) {
            ObjectNode v = json.createObjectNode();
            v.put("at", "2001-01-01T00:%02d:%02d.%06d".formatted(n / 20, n % 60, n * 12_345 % 1_000_000));
            v.put("code", List.of("A", "B\tb", "C\"c").get(n % 3));
            if (n % 7 == 3) {
                List.of("note", "i", "l", "f", "d", "b", "on_day", "ts", "amount").forEach(v::putNull);
            } else {
                v.put("note", texts[n % texts.length]);
                v.put("i", n * 1_000_003 % 2_000_000 - 1_000_000);
                v.put("l", n * 9_876_543_210_123L);
                v.set("f", json.readTree("0.1" + n));
                v.set("d", json.readTree(doubleText.apply(n)));
                v.put("b", n % 2 == 0);
                v.put("on_day", "2001-02-%02d".formatted(n % 28 + 1));
                v.put("ts", "1999-12-31T23:59:59.%06d".formatted(999_999 - n));
                v.set("amount", json.readTree("-12345.6%02d".formatted(n)));
            }
            out.add(v.toString());
        }
        return out;
    }

    /**
     * A hot path's YAML (for {@link #write}'s {@code hotPath}) over source {@code name}: topic
     * {@code name} on a broker nobody listens on (the tests apply batches themselves), event time
     * {@code at}, sink {@code bronze.<name>_events}, {@code allowedLateness}, then {@code windows}
     * (the YAML list under {@code windows:}, not indented).
     */
    static String hotPath(String name, String allowedLateness, String windows) {
        return """
                topic: %1$s
                bootstrap_servers: 127.0.0.1:9
                source: %1$s
                event_time: at
                sink: bronze.%1$s_events
                allowed_lateness: %2$s
                windows:
                """.formatted(name, allowedLateness) + windows.indent(2);
    }

    /**
     * The warehouse of a test run on {@code kind}: {@code "h2"}, a fresh H2 file under {@code home};
     * {@code "postgres"}, the database {@code postgres} of {@code postgres};
     * {@code "postgres-rewrite"}, a fresh database of {@code postgres} through a connection with
     * pgjdbc's {@code reWriteBatchedInserts=true}, whose JDBC batches of inserts report every
     * statement's count as {@code SUCCESS_NO_INFO} (-2), not the rows it wrote.
     */
    static String url(String kind, Path home, io.zonky.test.db.postgres.embedded.EmbeddedPostgres postgres) throws java.sql.SQLException {
        return switch (kind) {
            case "h2" -> "jdbc:h2:file:" + home.resolve("wh-" + java.util.UUID.randomUUID()).toAbsolutePath();
            case "postgres" -> postgres.getJdbcUrl("postgres", "postgres");
            case "postgres-rewrite" -> {
                String db = "rewrite_" + java.util.UUID.randomUUID().toString().replace("-", "");
                try (java.sql.Connection c = postgres.getPostgresDatabase().getConnection();
                        java.sql.Statement s = c.createStatement()) {
                    s.execute("CREATE DATABASE " + db);
                }
                yield postgres.getJdbcUrl("postgres", db) + "&reWriteBatchedInserts=true";
            }
            default -> throw new IllegalArgumentException("no warehouse kind " + kind);
        };
    }

    /** The warehouse user of {@link #url}'s {@code kind}. */
    static String user(String kind) {
        return kind.equals("h2") ? "sa" : "postgres";
    }

    /**
     * Writes contract {@code name} ({@code columns}, as {@link #ALL_TYPES}) and pipeline {@code name}
     * into {@code home}: a Bronze table of a source {@code name}, a Silver and a Gold reference table,
     * and {@code hotPath} (the YAML under {@code hot_path:}, not indented; null: none); loads it on
     * the warehouse {@code url} (password empty).
     */
    static PipelineSpec write(Path home, String name, String columns, String url, String user, String hotPath) throws IOException {
        Files.createDirectories(home.resolve("contracts"));
        Files.writeString(home.resolve("contracts/" + name + ".v1.yaml"), "contract: " + name + "\nversion: 1\n" + columns);
        String yaml = """
                pipeline: %1$s
                warehouse: {url: "${SLUICE_WAREHOUSE_URL}", user: "${SLUICE_WAREHOUSE_USER}", password: ""}
                sources:
                  - {name: %1$s, format: csv, path: "${SLUICE_HOME}/landing/%1$s.csv", partitioned: false, contract: contracts/%1$s.v1.yaml}
                layers:
                  bronze: [{table: bronze.%1$s_raw, source: %1$s}]
                  silver: [{table: silver.%1$s_codes, input: bronze.%1$s_raw, partition: none, key: [code], columns: {code: string}, sql: "SELECT DISTINCT code FROM {input} t"}]
                  gold: [{table: gold.codes, input: silver.%1$s_codes, partition: none, key: [code], columns: {code: string}, sql: "SELECT code FROM {input} s"}]
                """.formatted(name) + (hotPath == null ? "" : "hot_path:\n" + hotPath.indent(2));
        Path specFile = Files.writeString(home.resolve(name + ".yaml"), yaml);
        return new PipelineSpecLoader(new SluiceEnvironment(Map.of("SLUICE_HOME", home.toString(), "SLUICE_WAREHOUSE_URL", url,
                "SLUICE_WAREHOUSE_USER", user)).interpolator()).load(specFile);
    }
}
