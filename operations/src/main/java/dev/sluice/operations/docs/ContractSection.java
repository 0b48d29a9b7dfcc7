package dev.sluice.operations.docs;

import dev.sluice.config.AllowedValues;
import dev.sluice.config.ColumnSpec;
import dev.sluice.config.ContractSpec;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.SourceSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The "Contracts" section: per source its landing path, partitioning, contract (label, file,
 * drift policy, key) and a table of the contract's columns (type, nullable, PII policy, allowed
 * set, min, max). Stateless.
 */
final class ContractSection {

    private ContractSection() {
    }

    static void write(Markdown md, PipelineSpec spec, LandingNames landing) {
        md.heading(2, "Contracts");
        md.paragraph("A landed file is checked against its source's contract by header name before anything is written:"
                + " widening accepted, narrowing or a changed type refused; a column the contract lacks follows the drift"
                + " policy. Values outside a column's allowed set or range are quarantined on the way into Silver"
                + " (rules `contract_allowed`, `contract_range`).");
        for (SourceSpec s : spec.sources()) {
            ContractSpec c = s.contract();
            md.heading(3, "Source `" + s.name() + "`: contract " + Markdown.code(c.label()));
            md.bullet("format: " + s.format().name().toLowerCase(Locale.ROOT) + ", landing: " + Markdown.code(landing.path(s)));
            md.bullet("partitioning: " + partitioning(s));
            md.bullet("contract file: " + Markdown.code(contractFile(spec, c)) + ", version " + c.version());
            md.bullet("drift policy: " + Markdown.code(c.drift().id()) + " (" + drift(c) + ")");
            md.bullet("source key: " + (c.key().isEmpty() ? "none declared" : Markdown.code(String.join(", ", c.key()))));
            List<List<String>> rows = new ArrayList<>();
            for (ColumnSpec col : c.columns()) {
                AllowedValues a = col.allowed();
                rows.add(List.of(Markdown.code(col.name()), col.typeId(), col.nullable() ? "yes" : "no",
                        col.pii() ? "PII: " + s.policy(col.name()).id() : "-",
                        a.values().isEmpty() ? "-" : String.join(", ", a.values()), a.min() == null ? "-" : a.min(),
                        a.max() == null ? "-" : a.max()));
            }
            md.table(List.of("column", "type", "nullable", "PII policy", "allowed", "min", "max"), rows);
        }
    }

    private static String partitioning(SourceSpec s) {
        if (!s.partitioned()) {
            return "a reference snapshot shared by every partition";
        }
        return s.partitionColumnName().map(c -> "one file of many partitions, each row's partition from " + Markdown.code(c) + " (UTC day)")
                .orElse("one landing folder per partition (" + Markdown.code(SourceSpec.PARTITION_PLACEHOLDER) + " in the path)");
    }

    private static String drift(ContractSpec c) {
        return switch (c.drift()) {
            case FAIL -> "a file with an extra column is refused before anything is written";
            case IGNORE -> "an extra column is reported and not loaded";
            case EVOLVE -> "an extra column is added to Bronze (nullable) and loaded";
        };
    }

    private static String contractFile(PipelineSpec spec, ContractSpec c) {
        Path dir = spec.file().toAbsolutePath().getParent();
        Path file = c.file().toAbsolutePath();
        return (dir != null && file.startsWith(dir) ? dir.relativize(file) : file.getFileName()).toString().replace('\\', '/');
    }
}
