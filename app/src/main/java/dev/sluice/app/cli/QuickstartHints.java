package dev.sluice.app.cli;

import dev.sluice.engine.EngineDescription;
import dev.sluice.control.run.RunRepository;
import dev.sluice.config.ColumnSpec;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.Layer;
import dev.sluice.warehouse.meta.QuarantineTable;
import java.nio.file.Path;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What the quickstart prints when it ends: which engine ran it and why that one is the shipped
 * default, then commands to look at the result, named after the pipeline's own tables (the
 * flights pipeline on either engine, or any other spec given with {@code --pipeline}).
 */
final class QuickstartHints {

    private QuickstartHints() {
    }

    /**
     * The closing text.
     *
     * @param spec the pipeline the quickstart ran
     * @param engine how its engine describes it ({@code EngineProvider#describe})
     * @param lakeTwin the same pipeline on the lakehouse engine ({@code <name>_lake} among the
     *     pipelines), or null when there is none or {@code spec} is itself a lakehouse pipeline
     * @param first the first partition run ({@code YYYY-MM-DD})
     * @param last the last partition run ({@code YYYY-MM-DD}; in the sample data, the short day
     *     that the row-count checks warn about)
     * @param log the run log's file
     */
    static String render(PipelineSpec spec, EngineDescription engine, @Nullable String lakeTwin, String first, String last, Path log) {
        StringBuilder out = new StringBuilder();
        out.append(engine.quickstart());
        if (lakeTwin != null) {
            out.append("The same pipeline as Iceberg tables: ./sluice quickstart --pipeline ").append(lakeTwin)
                    .append("   (docs/engines.md)\n");
        }
        out.append("\nWhat to look at next:\n");
        String pipelineOption = spec.name().equals("flights") ? "" : " --pipeline " + spec.name();
        List<TableSpec> gold = spec.tables(Layer.GOLD);
        TableSpec mart = gold.isEmpty() ? null : gold.get(0);
        if (mart != null) {
            line(out, "./sluice sql%s \"SELECT * FROM %s ORDER BY 1 LIMIT 20\"".formatted(pipelineOption, mart.table().qualifiedName()));
        }
        if (engine.sqlSeesControlTables()) {
            line(out, "./sluice sql \"SELECT rule_id, partition_key, source, source_pos, record_json FROM %s\"".formatted(QuarantineTable.NAME));
            line(out, "./sluice sql \"SELECT partition_key, attempt, status, spec_hash FROM %s ORDER BY partition_key\"".formatted(RunRepository.TABLE_NAME));
        }
        line(out, "./sluice quality show %s --partition %s".formatted(spec.name(), last));
        if (mart != null) {
            line(out, "./sluice lineage upstream %s --format dot".formatted(mart.table().qualifiedName()));
            String column = lastColumn(mart);
            if (column != null) {
                line(out, "./sluice lineage columns %s.%s".formatted(mart.table().qualifiedName(), column));
            }
        }
        line(out, "./sluice run %s --partition %s            (refused: already COMPLETED)".formatted(spec.name(), first));
        line(out, "./sluice run %s --partition %s --rerun    (attempt 1; Silver and Gold stay identical)".formatted(spec.name(), first));
        line(out, "the full log of every run: " + log);
        return out.toString();
    }

    private static @Nullable String lastColumn(TableSpec table) {
        List<ColumnSpec> columns = table.columns();
        return columns.isEmpty() ? null : columns.get(columns.size() - 1).name();
    }

    private static void line(StringBuilder out, String text) {
        out.append("  ").append(text).append('\n');
    }
}
