package dev.sluice.core;

import java.util.Locale;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A warehouse table, {@code schema.table}, in lower case. Immutable and thread-safe.
 *
 * @param schema the schema (e.g. {@code silver}), a plain SQL identifier
 * @param table the table (e.g. {@code flights}), a plain SQL identifier
 */
public record DatasetRef(String schema, String table) {

    private static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]*");

    public DatasetRef {
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(table, "table");
        schema = schema.toLowerCase(Locale.ROOT);
        table = table.toLowerCase(Locale.ROOT);
        if (!IDENTIFIER.matcher(schema).matches() || !IDENTIFIER.matcher(table).matches()) {
            throw new IllegalArgumentException("not a plain identifier: " + schema + "." + table);
        }
    }

    /**
     * Parses {@code schema.table}.
     *
     * @throws IllegalArgumentException when the text is not two plain identifiers joined by a dot
     */
    public static DatasetRef parse(String qualified) {
        int dot = qualified.indexOf('.');
        if (dot <= 0 || dot != qualified.lastIndexOf('.')) {
            throw new IllegalArgumentException("expected schema.table, got '" + qualified + "'");
        }
        return new DatasetRef(qualified.substring(0, dot), qualified.substring(dot + 1));
    }

    /** {@code schema.table}. */
    public String qualifiedName() {
        return schema + "." + table;
    }

    @Override
    public String toString() {
        return qualifiedName();
    }
}
