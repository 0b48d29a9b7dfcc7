package dev.sluice.operations.docs;

import dev.sluice.config.HotPathSpec;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.config.WindowSpec;
import dev.sluice.core.Layer;
import dev.sluice.lineage.store.ColumnLineage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The "Lineage" section: per table the datasets it reads and writes, named as the lineage events
 * name them (landing files as {@code landing/…}), and per Silver/Gold table the column lineage read
 * from its SQL ({@link ColumnLineage}). Stateless.
 */
final class LineageSection {

    private LineageSection() {
    }

    static void write(Markdown md, PipelineSpec spec, LandingNames landing) {
        md.heading(2, "Lineage");
        md.paragraph("Every job and step emits OpenLineage events (transport " + Markdown.code(spec.lineage().transport().name()
                .toLowerCase(Locale.ROOT)) + ", namespace " + Markdown.code(spec.lineage().namespace())
                + "), also kept in the warehouse for `sluice lineage`.");
        List<List<String>> rows = new ArrayList<>();
        for (TableSpec t : spec.tables()) {
            List<String> in = new ArrayList<>();
            if (t.layer() == Layer.BRONZE) {
                spec.source(t.source()).ifPresent(s -> in.add(Markdown.code(landing.dataset(s))));
            } else {
                t.inputTable().ifPresent(i -> in.add(Markdown.code(i.qualifiedName())));
                ColumnLineage.referenced(spec, t).forEach(r -> in.add(Markdown.code(r.stepName()) + " (reads)"));
            }
            rows.add(List.of(String.join(", ", in), Markdown.code(t.stepName()), "`" + spec.name() + "." + t.stepName() + "`"));
        }
        HotPathSpec hot = spec.hotPath();
        if (hot != null) {
            rows.add(List.of("kafka " + Markdown.code(hot.topic()), Markdown.code(hot.sink().qualifiedName()), "hot path"));
            for (WindowSpec w : hot.windows()) {
                rows.add(List.of(Markdown.code(hot.sink().qualifiedName()), Markdown.code(w.table().qualifiedName()), "hot path"));
            }
        }
        md.heading(3, "Datasets");
        md.table(List.of("in", "out", "job"), rows);
        md.heading(3, "Column lineage");
        md.paragraph("Bronze columns come unchanged (IDENTITY) from the landed files. Silver and Gold columns, as read from each"
                + " table's SELECT; *masked* means a PII policy hashes or masks the value on the way into Silver.");
        for (TableSpec t : spec.tables()) {
            if (t.layer() == Layer.BRONZE) {
                continue;
            }
            Map<String, List<String>> byColumn = new LinkedHashMap<>();
            t.columns().forEach(c -> byColumn.put(c.name(), new ArrayList<>()));
            Map<String, String> subtypes = new LinkedHashMap<>();
            for (ColumnLineage.Input i : ColumnLineage.of(spec, t)) {
                byColumn.computeIfAbsent(i.column(), k -> new ArrayList<>()).add(i.dataset() + "." + i.field() + (i.masking() ? " (masked)" : ""));
                subtypes.putIfAbsent(i.column(), i.subtype());
            }
            List<List<String>> cols = new ArrayList<>();
            byColumn.forEach((col, from) -> cols.add(List.of(Markdown.code(col), from.isEmpty() ? "- (no input column: COUNT(*), a constant or the partition key)"
                    : String.join(", ", from), subtypes.getOrDefault(col, "-"))));
            md.paragraph(Markdown.code(t.stepName()) + ":");
            md.table(List.of("column", "from", "how"), cols);
        }
    }
}
