package dev.sluice.app.serve;

import dev.sluice.lineage.store.LineageRepository;
import dev.sluice.lineage.store.LineageRepository.Edge;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A dataset's lineage graph to a chosen depth each way, for {@code GET /api/v1/graph/{name}} (docs/serve.md,
 * "The lineage graph"): the edges of the lineage store's walks ({@link LineageRepository#upstream},
 * {@link LineageRepository#downstream}) within {@code upstream} and {@code downstream} levels, and per node
 * its signed level (upstream negative, the dataset 0, downstream positive: the fewest edges from the dataset)
 * and whether it can be expanded: it has edges in that direction beyond the shown depth. Each direction is
 * walked once, one level deeper than shown (the extra level only tells which nodes are expandable). Cycles and
 * self-edges stay finite: a dataset is visited once per direction. Thread-safe: every call reads the store anew.
 */
public final class LineageGraph {

    /** Levels shown each way by default. */
    public static final int DEFAULT_DEPTH = 3;
    /** The most levels one request may ask for, each way. */
    public static final int MAX_DEPTH = 100;

    private final LineageRepository lineage;

    public LineageGraph(LineageRepository lineage) {
        this.lineage = lineage;
    }

    /**
     * The graph around {@code name}: {@code {"name", "upstream": N, "downstream": N, "nodes": [{"name", "level",
     * "expandable": {"upstream": bool, "downstream": bool}}], "edges": [{"from", "to", "job"}]}}, nodes in
     * discovery order (the dataset first), or empty when nothing recorded reads or writes {@code name}.
     *
     * @param upstream levels upstream, 0 … {@value #MAX_DEPTH}
     * @param downstream levels downstream, 0 … {@value #MAX_DEPTH}
     * @throws IllegalArgumentException when a depth is outside 0 … {@value #MAX_DEPTH}, naming the parameter
     */
    public Optional<Map<String, Object>> graph(String name, int upstream, int downstream) {
        check("upstream", upstream);
        check("downstream", downstream);
        if (!lineage.known(name)) {
            return Optional.empty();
        }
        Map<String, Node> nodes = new LinkedHashMap<>();
        nodes.put(name, new Node(name, 0));
        Map<String, Edge> edges = new LinkedHashMap<>();
        side(name, lineage.upstream(name, upstream + 1), upstream, true, nodes, edges);
        side(name, lineage.downstream(name, downstream + 1), downstream, false, nodes, edges);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("name", name);
        out.put("upstream", upstream);
        out.put("downstream", downstream);
        out.put("nodes", nodes.values().stream().map(Node::json).toList());
        out.put("edges", edges.values().stream().map(e -> json("from", e.from(), "to", e.to(), "job", e.job())).toList());
        return Optional.of(out);
    }

    private static void check(String parameter, int depth) {
        if (depth < 0 || depth > MAX_DEPTH) {
            throw new IllegalArgumentException(parameter + " must be a whole number within 0 and " + MAX_DEPTH + ", was " + depth);
        }
    }

    /**
     * Adds one direction: {@code walked} is the store's walk one level deeper than {@code depth}; the
     * levels are the walk's (breadth first from {@code name}), the edges shown are those whose near end
     * lies within {@code depth - 1} levels (exactly the walk of {@code depth} levels), and a node at
     * level {@code depth} with a further edge is expandable.
     */
    private static void side(String name, List<Edge> walked, int depth, boolean up, Map<String, Node> nodes, Map<String, Edge> edges) {
        Map<String, List<Edge>> byNear = new HashMap<>();
        for (Edge e : walked) {
            byNear.computeIfAbsent(up ? e.to() : e.from(), k -> new ArrayList<>()).add(e);
        }
        Map<String, Integer> level = new LinkedHashMap<>(Map.of(name, 0));
        List<String> frontier = List.of(name);
        for (int l = 0; !frontier.isEmpty(); l++) {
            List<String> next = new ArrayList<>();
            for (String n : frontier) {
                for (Edge e : byNear.getOrDefault(n, List.of())) {
                    String far = up ? e.from() : e.to();
                    if (l < depth) {
                        edges.putIfAbsent(e.from() + "\u2192" + e.to(), e);
                        if (!level.containsKey(far)) {
                            level.put(far, l + 1);
                            next.add(far);
                            nodes.putIfAbsent(far, new Node(far, up ? -(l + 1) : l + 1));
                        }
                    } else {
                        Node node = nodes.get(n);
                        if (up) {
                            node.expandUp = true;
                        } else {
                            node.expandDown = true;
                        }
                    }
                }
            }
            frontier = l < depth ? next : List.of();
        }
    }

    private static Map<String, Object> json(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    /** A node being built: its level and whether it has edges beyond the shown depth each way. */
    private static final class Node {
        private final String name;
        private final int level;
        private boolean expandUp;
        private boolean expandDown;

        Node(String name, int level) {
            this.name = name;
            this.level = level;
        }

        Map<String, Object> json() {
            return LineageGraph.json("name", name, "level", level, "expandable",
                    LineageGraph.json("upstream", expandUp, "downstream", expandDown));
        }
    }
}
