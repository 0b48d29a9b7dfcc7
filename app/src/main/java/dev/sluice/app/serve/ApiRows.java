package dev.sluice.app.serve;

import java.util.LinkedHashMap;
import java.util.Map;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * The pieces the catalog API's answers are made of: a JSON object as an ordered map, and the
 * column references its queries use (unqualified, or of the alias {@code r}). Stateless.
 */
final class ApiRows {

    private ApiRows() {
    }

    /** An ordered JSON object of key/value pairs ({@code "run_id", id, "status", s}); values may be null. */
    static Map<String, Object> row(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    /** The column {@code name}, unqualified. */
    static Field<Object> f(String name) {
        return DSL.field(DSL.name(name));
    }

    /** The column {@code name} of the alias {@code r}. */
    static Field<Object> a(String name) {
        return DSL.field(DSL.name("r", name));
    }
}
