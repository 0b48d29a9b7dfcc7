package dev.sluice.config;

import java.nio.file.Path;
import java.util.List;

/**
 * A source's schema contract: the columns a landed file must have, by name.
 *
 * @param file the contract file
 * @param name the contract's name (e.g. {@code flights})
 * @param version the contract version (1, 2, …)
 * @param columns the columns in declaration order
 * @param drift what to do with a column a landed file has and the contract does not
 */
public record ContractSpec(Path file, String name, int version, List<ColumnSpec> columns, DriftPolicy drift) {
    public ContractSpec {
        columns = List.copyOf(columns);
    }

    /** {@code name.vN}, as drift events and messages name a contract. */
    public String label() {
        return name + ".v" + version;
    }
}
