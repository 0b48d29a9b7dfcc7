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
 * @param key the columns that identify a source record (documentation for readers and gates; Bronze
 *     keeps duplicates as they came), empty when the source has no natural key
 */
public record ContractSpec(Path file, String name, int version, List<ColumnSpec> columns, DriftPolicy drift,
        List<String> key) {
    public ContractSpec {
        columns = List.copyOf(columns);
        key = List.copyOf(key);
    }

    /** A contract without a key. */
    public ContractSpec(Path file, String name, int version, List<ColumnSpec> columns, DriftPolicy drift) {
        this(file, name, version, columns, drift, List.of());
    }

    /** {@code name.vN}, as drift events and messages name a contract. */
    public String label() {
        return name + ".v" + version;
    }
}
