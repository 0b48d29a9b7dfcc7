package dev.sluice.operations.docs;

import dev.sluice.config.HotPathSpec;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.SourceSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.config.WindowSpec;
import dev.sluice.core.Layer;
import dev.sluice.lineage.store.ColumnLineage;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The flow of a pipeline as a Mermaid {@code flowchart LR} (https://mermaid.js.org/syntax/flowchart.html):
 * landing sources → Bronze → Silver → Gold, one subgraph per layer, a table's node id being its
 * qualified name (e.g. {@code bronze.flights_raw --> silver.flights}); tables a transform also
 * reads (a join, a quarantine rule's lookup) as dotted {@code reads} edges; the hot path's topic →
 * sink → live windows, its rules source and its reconciliation as dotted edges. Reference
 * snapshots (unpartitioned sources and tables) carry {@code (reference snapshot)} in their label
 * and class {@code snapshot}. Stateless.
 */
final class FlowDiagram {

    private static final Pattern TABLE_ID = Pattern.compile("\\b(bronze|silver|gold)\\.([a-z0-9_]+)");

    private FlowDiagram() {
    }

    /** The fenced Mermaid block of {@code spec}. */
    static String of(PipelineSpec spec) {
        StringBuilder m = new StringBuilder("```mermaid\nflowchart LR\n");
        m.append("  subgraph Landing\n");
        for (SourceSpec s : spec.sources()) {
            m.append("    ").append(sourceId(s)).append("[/\"landing: ").append(s.name()).append(" (")
                    .append(s.format().name().toLowerCase(Locale.ROOT)).append(s.partitioned() ? "" : ", reference snapshot")
                    .append(")\"/]\n");
        }
        HotPathSpec hot = spec.hotPath();
        if (hot != null) {
            m.append("    ").append(topicId(hot)).append("[(\"kafka: ").append(hot.topic()).append("\")]\n");
        }
        m.append("  end\n");
        for (Layer layer : Layer.values()) {
            if (spec.tables(layer).isEmpty() && !(hot != null && isHotLayer(hot, layer))) {
                continue;
            }
            m.append("  subgraph ").append(title(layer)).append('\n');
            for (TableSpec t : spec.tables(layer)) {
                m.append("    ").append(t.stepName()).append("[\"").append(t.stepName()).append(label(t)).append("\"]\n");
            }
            if (hot != null && hot.sink().schema().equals(schema(layer))) {
                m.append("    ").append(hot.sink().qualifiedName()).append("[\"").append(hot.sink().qualifiedName())
                        .append(" (hot path sink)\"]\n");
            }
            if (hot != null) {
                for (WindowSpec w : hot.windows()) {
                    if (w.table().schema().equals(schema(layer))) {
                        m.append("    ").append(w.table().qualifiedName()).append("[\"").append(w.table().qualifiedName())
                                .append(" (live, ").append(w.kind().name().toLowerCase(Locale.ROOT)).append(")\"]\n");
                    }
                }
            }
            m.append("  end\n");
        }
        for (TableSpec t : spec.tables()) {
            if (t.layer() == Layer.BRONZE) {
                spec.source(t.source()).ifPresent(s -> m.append("  ").append(sourceId(s)).append(" --> ").append(t.stepName()).append('\n'));
            } else {
                t.inputTable().ifPresent(in -> m.append("  ").append(in.qualifiedName()).append(" --> ").append(t.stepName()).append('\n'));
                for (TableSpec r : ColumnLineage.referenced(spec, t)) {
                    m.append("  ").append(r.stepName()).append(" -. reads .-> ").append(t.stepName()).append('\n');
                }
            }
        }
        if (hot != null) {
            m.append("  ").append(topicId(hot)).append(" --> ").append(hot.sink().qualifiedName()).append('\n');
            for (WindowSpec w : hot.windows()) {
                m.append("  ").append(hot.sink().qualifiedName()).append(" --> ").append(w.table().qualifiedName()).append('\n');
            }
            if (hot.rulesFrom() != null) {
                m.append("  ").append(hot.rulesFrom().qualifiedName()).append(" -. quarantine rules .-> ").append(hot.sink().qualifiedName())
                        .append('\n');
            }
            if (hot.reconcile() != null) {
                m.append("  ").append(hot.reconcile().window().qualifiedName()).append(" -. reconciled with .-> ")
                        .append(hot.reconcile().against().qualifiedName()).append('\n');
            }
        }
        StringBuilder snapshots = new StringBuilder();
        spec.sources().stream().filter(s -> !s.partitioned()).forEach(s -> snapshots.append(snapshots.isEmpty() ? "" : ",").append(sourceId(s)));
        spec.tables().stream().filter(t -> !t.partitioned()).forEach(t -> snapshots.append(snapshots.isEmpty() ? "" : ",").append(t.stepName()));
        if (!snapshots.isEmpty()) {
            m.append("  classDef snapshot stroke-dasharray: 5 5\n");
            m.append("  class ").append(snapshots).append(" snapshot\n");
        }
        return safeIds(m.append("```\n").toString());
    }

    /**
     * Node ids without dots ({@code silver.flights} → {@code silver_flights}): some Mermaid
     * renderers cut an id at a dot. Labels (in quotes) keep the qualified names.
     */
    private static String safeIds(String diagram) {
        StringBuilder out = new StringBuilder();
        String[] parts = diagram.split("\"", -1);
        for (int i = 0; i < parts.length; i++) {
            out.append(i % 2 == 0 ? TABLE_ID.matcher(parts[i]).replaceAll("$1_$2") : parts[i]);
            if (i < parts.length - 1) {
                out.append('"');
            }
        }
        return out.toString();
    }

    private static boolean isHotLayer(HotPathSpec hot, Layer layer) {
        return hot.sink().schema().equals(schema(layer)) || hot.windows().stream().anyMatch(w -> w.table().schema().equals(schema(layer)));
    }

    private static String label(TableSpec t) {
        if (!t.partitioned()) {
            return " (reference snapshot)";
        }
        return t.rollup() != null ? " (" + t.rollup().id() + " rollup)" : "";
    }

    private static String sourceId(SourceSpec s) {
        return "landing_" + s.name();
    }

    private static String topicId(HotPathSpec hot) {
        return "topic_" + hot.topic().replaceAll("[^A-Za-z0-9_]", "_");
    }

    private static String schema(Layer layer) {
        return layer.id();
    }

    private static String title(Layer layer) {
        String s = schema(layer);
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
