package dev.sluice.config;

import dev.sluice.core.DatasetRef;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Words that cannot be column, schema or table names without quoting on the warehouses Sluice
 * supports. Sluice writes identifiers unquoted (so that H2's upper-case and PostgreSQL's lower-case
 * folding both work), so a column or table named by one of these fails at run time; validation
 * refuses it up front.
 *
 * <p>Sources: H2 2.x documentation, "Keywords / Reserved Words"; PostgreSQL 16 documentation,
 * Appendix C, the words marked "reserved" (not "non-reserved") for PostgreSQL.
 */
public final class SqlIdentifiers {

    private static final Set<String> RESERVED = Set.copyOf(List.of(
            // H2 2.x
            "all", "and", "any", "array", "as", "asymmetric", "authorization", "between", "both", "case", "cast",
            "check", "constraint", "cross", "current_catalog", "current_date", "current_path", "current_role",
            "current_schema", "current_time", "current_timestamp", "current_user", "day", "default", "distinct",
            "else", "end", "except", "exists", "false", "fetch", "for", "foreign", "from", "full", "group", "groups",
            "having", "hour", "if", "ilike", "in", "inner", "intersect", "interval", "is", "join", "key", "leading",
            "left", "like", "limit", "localtime", "localtimestamp", "minus", "minute", "month", "natural", "not",
            "null", "offset", "on", "or", "order", "over", "partition", "primary", "qualify", "range", "regexp",
            "right", "row", "rownum", "rows", "second", "select", "session_user", "set", "some", "symmetric",
            "system_user", "table", "to", "top", "trailing", "true", "uescape", "union", "unique", "unknown", "user",
            "using", "value", "values", "when", "where", "window", "with", "year",
            // PostgreSQL reserved, beyond the above
            "analyse", "analyze", "asc", "collate", "column", "create", "current_role", "deferrable", "desc", "do",
            "grant", "initially", "lateral", "only", "placing", "references", "returning", "variadic"));

    private SqlIdentifiers() {
    }

    /** True when {@code name} is reserved on H2 or PostgreSQL. */
    public static boolean isReserved(String name) {
        return RESERVED.contains(name.toLowerCase(Locale.ROOT));
    }

    /**
     * The problem with a table a spec declares, when its schema or table name is reserved (e.g.
     * {@code bronze.distinct}: "'distinct' is a reserved SQL word on H2 or PostgreSQL; choose another
     * table name"); empty when both names are plain.
     */
    public static Optional<String> reservedName(DatasetRef table) {
        return Stream.of(table.schema(), table.table()).filter(SqlIdentifiers::isReserved).findFirst()
                .map(w -> "'" + w + "' is a reserved SQL word on H2 or PostgreSQL; choose another "
                        + (w.equals(table.table()) ? "table" : "schema") + " name");
    }
}
