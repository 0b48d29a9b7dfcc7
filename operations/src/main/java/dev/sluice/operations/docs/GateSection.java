package dev.sluice.operations.docs;

import dev.sluice.engine.LayerEngines;
import dev.sluice.control.quality.QualityResultRepository;
import dev.sluice.config.CheckSpec;
import dev.sluice.config.ColumnSpec;
import dev.sluice.config.HotPathSpec;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.QuarantineRule;
import dev.sluice.config.ReconcileSpec;
import dev.sluice.config.SourceSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.Layer;
import dev.sluice.warehouse.meta.QuarantineTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The "Quality gates" section, per boundary (ARCHITECTURE.md, "Quality gates"): source = the Bronze
 * tables' checks, transform = the Silver tables' checks and quarantine rules (the implied contract
 * rules first, then the declared ones, first match wins), sink = the Gold tables' checks; then the
 * hot path's dead-letter topic, rules and reconciliation. Check parameters are listed by name.
 * Stateless.
 */
final class GateSection {

    private GateSection() {
    }

    static void write(Markdown md, PipelineSpec spec) {
        md.heading(2, "Quality gates");
        md.paragraph(LayerEngines.provider(spec).describe(spec).gates() + " A failed `error` check"
                + " fails the step (restartable after a fix); a failed `warn` check is recorded and the partition goes on."
                + " Results are kept in `" + QualityResultRepository.TABLE_NAME + "` (`sluice quality show " + spec.name() + " --partition KEY`).");
        boundary(md, spec, Layer.BRONZE, "Source (Bronze)");
        boundary(md, spec, Layer.SILVER, "Transform (Silver)");
        boundary(md, spec, Layer.GOLD, "Sink (Gold)");
        hotPath(md, spec);
    }

    private static void boundary(Markdown md, PipelineSpec spec, Layer layer, String title) {
        md.heading(3, title);
        List<TableSpec> tables = spec.tables(layer);
        if (tables.isEmpty()) {
            md.paragraph("No " + layer.id() + " tables.");
            return;
        }
        for (TableSpec t : tables) {
            if (t.checks().isEmpty()) {
                md.paragraph(Markdown.code(t.stepName()) + ": no checks declared.");
            } else {
                md.paragraph(Markdown.code(t.stepName()) + ":");
                List<List<String>> rows = new ArrayList<>();
                for (CheckSpec c : t.checks()) {
                    rows.add(List.of(Markdown.code(c.id()), c.expectation().id(), c.column() == null ? "-" : c.column(), params(c),
                            c.mostly() == null ? "-" : Double.toString(c.mostly()), c.severity().name().toLowerCase(Locale.ROOT)));
                }
                md.table(List.of("check", "expectation", "column", "parameters", "mostly", "severity"), rows);
            }
            if (layer == Layer.SILVER) {
                quarantine(md, spec, t);
            }
        }
    }

    private static void quarantine(Markdown md, PipelineSpec spec, TableSpec t) {
        List<List<String>> rows = new ArrayList<>();
        TableSpec input = t.inputTable().flatMap(spec::table).orElse(null);
        SourceSpec source = input != null && input.layer() == Layer.BRONZE && input.source() != null
                ? spec.source(input.source()).orElse(null) : null;
        if (source != null) {
            rows.add(List.of("`contract_violation`", "(implied) a value broke the contract while being read", "the read errors", "-", "-"));
            source.partitionColumnName().ifPresent(pc -> rows.add(List.of("`partition_value_missing`", "(implied) " + pc + " IS NULL",
                    "the row belongs to no partition", "-", "-")));
            for (ColumnSpec c : source.contract().columns()) {
                var a = c.allowed();
                if (a.hasRange()) {
                    rows.add(List.of("`contract_range`", "(implied) " + c.name() + " outside [" + (a.min() == null ? "-∞" : a.min()) + ", "
                            + (a.max() == null ? "∞" : a.max()) + "]", "contract " + source.contract().label(), "-", "-"));
                }
                if (!a.values().isEmpty()) {
                    rows.add(List.of("`contract_allowed`", "(implied) " + c.name() + " not in " + a.values(),
                            "contract " + source.contract().label(), "-", "-"));
                }
            }
        }
        for (QuarantineRule r : t.quarantine()) {
            rows.add(List.of(Markdown.code(r.id()), Markdown.code(r.when()), r.reason(),
                    r.maxShare() == null ? "-" : Markdown.percent(r.maxShare()),
                    r.maxShare() == null ? "-" : r.severity().name().toLowerCase(Locale.ROOT)));
        }
        if (rows.isEmpty()) {
            md.paragraph(Markdown.code(t.stepName()) + " quarantine rules: none.");
            return;
        }
        md.paragraph(Markdown.code(t.stepName()) + " quarantine rules (first match wins; a quarantined row never reaches Silver,"
                + " it is kept in `" + QuarantineTable.NAME + "` with its raw record):");
        md.table(List.of("rule", "when", "reason", "max share", "severity"), rows);
    }

    private static void hotPath(Markdown md, PipelineSpec spec) {
        HotPathSpec hot = spec.hotPath();
        if (hot == null) {
            return;
        }
        md.heading(3, "Hot path");
        md.bullet("events follow contract " + Markdown.code(spec.source(hot.source()).map(s -> s.contract().label()).orElse(hot.source()))
                + "; an event that cannot be decoded or breaks it goes to " + Markdown.code(hot.deadLetterTopic())
                + " (with topic, partition, offset and error headers) and the quarantine");
        md.bullet(hot.rulesFrom() == null ? "no Silver quarantine rules applied to events (no `rules_from`)"
                : "events also pass the quarantine rules of " + Markdown.code(hot.rulesFrom().qualifiedName()) + " ("
                        + hot.rules().size() + " rules), judged exactly as Silver judges the same row");
        md.bullet("allowed lateness " + hot.allowedLateness() + ": a later event is kept in the sink, quarantined (`too_late`) and left out"
                + " of the windows");
        ReconcileSpec r = hot.reconcile();
        if (r == null) {
            md.bullet("no reconciliation with a batch mart declared");
        } else {
            md.bullet("reconciliation (check " + Markdown.code(r.checkId()) + ", severity " + r.severity().name().toLowerCase(Locale.ROOT)
                    + "): after each batch load of a partition, " + Markdown.code(r.window().qualifiedName()) + " rolled up per "
                    + String.join(", ", r.keys()) + " against " + Markdown.code(r.against().qualifiedName()) + ": " + r.count()
                    + " equal" + (r.averages().isEmpty() ? "" : ", " + String.join(", ", r.averages()) + " within a relative "
                    + r.relativeTolerance()));
        }
        md.blank();
    }

    /** The check's parameters, {@code name=value}, by name. */
    private static String params(CheckSpec c) {
        Map<String, Object> sorted = new TreeMap<>(c.params());
        if (sorted.isEmpty()) {
            return "-";
        }
        List<String> out = new ArrayList<>();
        sorted.forEach((k, v) -> out.add(k + "=" + v));
        return String.join(", ", out);
    }
}
