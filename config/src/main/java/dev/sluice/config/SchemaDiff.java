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
 *   <li>a decimal contract column: a file decimal of another precision or scale, or an int/long
 *       (as decimal(10,0)/decimal(19,0)), is {@code WIDENED} when the contract's decimal holds
 *       all its values, else {@code NARROWED}; both load, every value judged as it is read
 *       ({@link DecimalSpec#fit}).</li>
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
     * @param decimal the precision and scale when {@code type} is decimal, else null
     * @param unsupported the file's type when Sluice cannot read it (e.g. a Parquet unsigned
     *     integer or INTERVAL), else null: such a column is refused, never guessed at
     */
    public record FileColumn(String name, @Nullable ColumnType type, @Nullable DecimalSpec decimal, @Nullable String unsupported) {
        public FileColumn {
            if ((type == ColumnType.DECIMAL) != (decimal != null)) {
                throw new IllegalArgumentException("file column " + name + ": a decimal has a precision and scale, another type none");
            }
        }

        /** A column of a type Sluice reads (or of an untyped format), not a decimal. */
        public FileColumn(String name, @Nullable ColumnType type) {
            this(name, type, null, null);
        }

        /** A column of a type Sluice reads, or one it cannot ({@code unsupported}). */
        public FileColumn(String name, @Nullable ColumnType type, @Nullable String unsupported) {
            this(name, type, null, unsupported);
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
            } else if (f.type() != null && c.decimal() != null && asDecimal(f) != null) {
                DecimalSpec found = asDecimal(f);
                if (!found.equals(c.decimal()) || f.type() != ColumnType.DECIMAL) {
                    changes.add(new SchemaChange(c.decimal().holds(found) ? SchemaChange.Kind.WIDENED : SchemaChange.Kind.NARROWED,
                            c.name(), c.type(), f.type(), SchemaChange.Outcome.ACCEPTED, c.decimal(), f.decimal()));
                }
            } else if (f.type() != null && f.type() != c.type()) {
                boolean widens = c.type().widensFrom(f.type());
                changes.add(new SchemaChange(widens ? SchemaChange.Kind.WIDENED : SchemaChange.Kind.RETYPED, c.name(),
                        c.type(), f.type(), widens ? SchemaChange.Outcome.ACCEPTED : SchemaChange.Outcome.REFUSED,
                        c.decimal(), f.decimal()));
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
            changes.add(new SchemaChange(SchemaChange.Kind.ADDED, added.name(), null, added.type(), outcome, null, added.decimal()));
        }
        return changes;
    }

    /** A file column that a decimal contract column reads exactly: a decimal, or an int/long as decimal(10,0)/(19,0). */
    private static @Nullable DecimalSpec asDecimal(FileColumn f) {
        return f.type() == ColumnType.DECIMAL ? f.decimal() : f.type() == ColumnType.INT ? new DecimalSpec(10, 0)
                : f.type() == ColumnType.LONG ? new DecimalSpec(19, 0) : null;
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
