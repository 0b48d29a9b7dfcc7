package dev.sluice.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.sluice.app.serve.LineageGraph;
import dev.sluice.batch.testkit.TestHome;
import dev.sluice.lineage.store.LineageRepository;
import dev.sluice.warehouse.Warehouse;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import org.jooq.DSLContext;
import org.junit.jupiter.api.Test;

/**
 * {@link LineageGraph} over a lineage store (H2) holding a cycle (a → b → c → a), a self-edge
 * (b → b) and side branches (d → a, c → e): the walks stay finite, levels are the fewest edges from
 * the dataset (upstream negative), a dataset on both sides keeps its upstream level, and exactly the
 * nodes with edges beyond the shown depth are expandable that way.
 */
class LineageGraphIT {

    @Test
    void cyclesAndSelfEdgesStayFiniteAndTheFrontierIsExpandable() throws Exception {
        try (Warehouse w = Warehouse.open(TestHome.flightsSpec(TestHome.freshH2Url(), "sa", "").warehouse())) {
            for (String[] e : new String[][] {{"a", "b"}, {"b", "c"}, {"c", "a"}, {"b", "b"}, {"d", "a"}, {"c", "e"}}) {
                edge(w.dsl(), e[0], e[1]);
            }
            LineageGraph graph = new LineageGraph(new LineageRepository(w.dsl()));

            Map<String, Object> all = graph.graph("b", 100, 100).orElseThrow();
            assertThat(nodes(all)).containsExactly("b 0 up=false down=false", "a -1 up=false down=false", "c -2 up=false down=false",
                    "d -2 up=false down=false", "e 2 up=false down=false");
            assertThat(edges(all)).containsExactlyInAnyOrder("a->b", "b->b", "c->a", "d->a", "b->c", "c->e");

            Map<String, Object> near = graph.graph("b", 1, 0).orElseThrow();
            assertThat(nodes(near)).containsExactly("b 0 up=false down=true", "a -1 up=true down=false");
            assertThat(edges(near)).containsExactlyInAnyOrder("a->b", "b->b");

            Map<String, Object> none = graph.graph("b", 0, 0).orElseThrow();
            assertThat(nodes(none)).containsExactly("b 0 up=true down=true");
            assertThat(edges(none)).isEmpty();

            assertThat(graph.graph("nope", 3, 3)).isEmpty();
            assertThatThrownBy(() -> graph.graph("b", 101, 3)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("upstream must be a whole number within 0 and 100, was 101");
            assertThatThrownBy(() -> graph.graph("b", 3, -1)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("downstream must be a whole number within 0 and 100, was -1");
        }
    }

    private static void edge(DSLContext dsl, String from, String to) {
        dsl.query("INSERT INTO sluice.lineage_edge (run_id, job, partition_key, input_namespace, input_name, output_namespace, output_name,"
                + " event_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", "r-" + from + to, "job_" + to, "2001-01-01", "test", from, "test", to,
                OffsetDateTime.parse("2001-01-01T00:00:00Z")).execute();
        // the dataset graph the walks read, which the store writes with each edge (DatasetGraph)
        dsl.query("INSERT INTO sluice.lineage_graph (input_name, output_name, job, input_namespace, output_namespace, first_seen, last_seen)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?)", from, to, "job_" + to, "test", "test", OffsetDateTime.parse("2001-01-01T00:00:00Z"),
                OffsetDateTime.parse("2001-01-01T00:00:00Z")).execute();
    }

    @SuppressWarnings("unchecked")
    private static List<String> nodes(Map<String, Object> graph) {
        return ((List<Map<String, Object>>) graph.get("nodes")).stream().map(n -> {
            Map<String, Object> x = (Map<String, Object>) n.get("expandable");
            return n.get("name") + " " + n.get("level") + " up=" + x.get("upstream") + " down=" + x.get("downstream");
        }).toList();
    }

    @SuppressWarnings("unchecked")
    private static List<String> edges(Map<String, Object> graph) {
        return ((List<Map<String, Object>>) graph.get("edges")).stream().map(e -> e.get("from") + "->" + e.get("to")).toList();
    }
}
