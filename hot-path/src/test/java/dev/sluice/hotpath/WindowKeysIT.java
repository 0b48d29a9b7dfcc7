package dev.sluice.hotpath;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ContractSpec;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.RunId;
import dev.sluice.warehouse.Warehouse;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Group values that Java tells apart but PostgreSQL's key columns hold as one (timestamps within a
 * microsecond in a TIMESTAMP(6); -0.0 and 0.0 in a DOUBLE, which the decoder already reads as one)
 * fold into one window row: one batch of four such events is one upsert statement, which PostgreSQL refuses when it touches a row twice
 * ("ON CONFLICT DO UPDATE command cannot affect row a second time"). The window holds 4 events
 * in 1 row.
 */
class WindowKeysIT {

    @TempDir
    Path home;

    @Test
    void valuesOneKeyApartFoldIntoOneWindowRow() throws Exception {
        try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().start()) {
            PipelineSpec spec = TestPipelines.write(home, "keys", """
                    columns:
                      - {name: at, type: timestamp, nullable: false}
                      - {name: code, type: string, nullable: false}
                      - {name: g, type: double, lossy: true}
                      - {name: t, type: timestamp}
                    """, postgres.getJdbcUrl("postgres", "postgres"), "postgres", TestPipelines.hotPath("keys", "PT1000H", """
                    - {table: gold.keys_windows, kind: tumbling, size: PT60S, group_by: [g, t], measures: {n: count}}
                    """));
            ContractSpec contract = spec.source("keys").orElseThrow().contract();
            EventDecoder decoder = new EventDecoder(contract, "at");
            List<String> values = List.of(
                    "{\"at\": \"2001-01-01T00:00:01\", \"code\": \"A\", \"g\": 0.0, \"t\": \"2001-01-01T00:00:00\"}",
                    "{\"at\": \"2001-01-01T00:00:02\", \"code\": \"A\", \"g\": -0.0, \"t\": \"2001-01-01T00:00:00\"}",
                    "{\"at\": \"2001-01-01T00:00:03\", \"code\": \"A\", \"g\": 0.0, \"t\": \"2001-01-01T00:00:00.0000001\"}",
                    "{\"at\": \"2001-01-01T00:00:04\", \"code\": \"A\", \"g\": -0.0, \"t\": \"2001-01-01T00:00:00.0000004\"}");
            List<HotSink.Consumed> events = new ArrayList<>();
            for (int n = 0; n < values.size(); n++) {
                EventDecoder.Decoded d = decoder.decode(("k-" + n).getBytes(StandardCharsets.UTF_8), values.get(n).getBytes(StandardCharsets.UTF_8));
                assertThat(d.violation()).as(values.get(n)).isNull();
                events.add(new HotSink.Consumed(d.event(), new HotSink.Position("keys", 0, n)));
            }
            // the decoder already reads JSON's -0.0 as 0.0; the timestamps stay apart to the nanosecond
            assertThat(events.stream().map(c -> c.event().values().get("t").toString()).distinct())
                    .containsExactly("2001-01-01T00:00", "2001-01-01T00:00:00.000000100", "2001-01-01T00:00:00.000000400");
            try (Warehouse w = Warehouse.open(spec.warehouse(), 2)) {
                HotSink sink = new HotSink("keys", spec.hotPath(), contract);
                sink.create(w.dsl());
                w.dsl().transaction(c -> sink.apply(c.dsl(), events, List.of(), Map.of(0, PartitionRead.at(4)), RunId.newId(), 1));
                assertThat(w.dsl().resultQuery("SELECT CAST(g AS VARCHAR) || ' ' || CAST(t AS VARCHAR) || ' ' || n FROM gold.keys_windows")
                        .fetch(0, String.class)).containsExactly("0 2001-01-01 00:00:00 4");
            }
        }
    }
}
