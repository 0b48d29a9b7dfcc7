package dev.sluice.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Compares a landed file's columns with its contract <b>by name</b>, never by position (reordered
 * columns are no change), and decides each difference:
 * <ul>
 *   <li>an added column: by the contract's drift policy ({@code fail} refuses, {@code ignore}
 *       reports, {@code evolve} adds a nullable Bronze column);</li>
 *   <li>a missing column: refused when the contract says it is required ({@code nullable: false}),
 *       else loaded as NULL;</li>
 *   <li>a type change: accepted when it widens ({@link ColumnType#widensFrom}), refused otherwise.
 *       A file format without types (CSV) has no type changes: its values are parsed per row.</li>
 * </ul>
 * Stateless and thread-safe.
 */
public final class SchemaDiff {

    private SchemaDiff() {
    }

    /**
     * A column as a file declares it.
     *
     * @param name the column's name
     * @param type its type, null when the format has no types (CSV, JSON) or Sluice cannot read it
     * @param unsupported the file's type when Sluice cannot read it (e.g. a Parquet DECIMAL or
     *     unsigned integer), else null: such a column is refused, never guessed at
     */
    public record FileColumn(String name, @Nullable ColumnType type, @Nullable String unsupported) {
        /** A column of a type Sluice reads (or of an untyped format). */
        public FileColumn(String name, @Nullable ColumnType type) {
            this(name, type, null);
        }
    }

    /** Every difference between {@code file}'s columns and {@code contract}, in contract order then file order. */
    public static List<SchemaChange> of(ContractSpec contract, List<FileColumn> file) {
        Map<String, FileColumn> byName = new LinkedHashMap<>();
        file.forEach(c -> byName.put(c.name(), c));
        List<SchemaChange> changes = new ArrayList<>();
        for (ColumnSpec c : contract.columns()) {
            FileColumn f = byName.remove(c.name());
            if (f == null) {
                changes.add(new SchemaChange(SchemaChange.Kind.MISSING, c.name(), c.type(), null,
                        c.nullable() ? SchemaChange.Outcome.ACCEPTED : SchemaChange.Outcome.REFUSED));
            } else if (f.unsupported() != null) {
                changes.add(new SchemaChange(SchemaChange.Kind.RETYPED, c.name(), c.type(), null, SchemaChange.Outcome.REFUSED));
            } else if (f.type() != null && f.type() != c.type()) {
                boolean widens = c.type().widensFrom(f.type());
                changes.add(new SchemaChange(widens ? SchemaChange.Kind.WIDENED : SchemaChange.Kind.RETYPED, c.name(),
                        c.type(), f.type(), widens ? SchemaChange.Outcome.ACCEPTED : SchemaChange.Outcome.REFUSED));
            }
        }
        for (FileColumn added : byName.values()) {
            SchemaChange.Outcome outcome = switch (contract.drift()) {
                case FAIL -> SchemaChange.Outcome.REFUSED;
                case IGNORE -> SchemaChange.Outcome.IGNORED;
                // a name that cannot be a plain column (reserved, metadata-like, not an identifier) is never added
                case EVOLVE -> canBeColumn(added.name(), contract) && added.unsupported() == null
                        ? SchemaChange.Outcome.EVOLVED : SchemaChange.Outcome.REFUSED;
            };
            changes.add(new SchemaChange(SchemaChange.Kind.ADDED, added.name(), null, added.type(), outcome));
        }
        return changes;
    }

    /**
     * True when {@code name} may become a Bronze column by evolution: a lower-case identifier
     * ([a-z][a-z0-9_]*, so never a metadata {@code _} name), not a reserved word, and not a
     * contract column under another case.
     */
    public static boolean canBeColumn(String name, ContractSpec contract) {
        return ContractLoader.IDENTIFIER.matcher(name).matches() && !SqlIdentifiers.isReserved(name)
                && contract.columns().stream().noneMatch(c -> c.name().equalsIgnoreCase(name));
    }

    /** The first refused change, if any. */
    public static Optional<SchemaChange> refusal(List<SchemaChange> changes) {
        return changes.stream().filter(c -> c.outcome() == SchemaChange.Outcome.REFUSED).findFirst();
    }
}
