package dev.sluice.lineage.store;

import dev.sluice.lineage.LocationName;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Table;
import org.jooq.exception.IntegrityConstraintViolationException;
import org.jooq.impl.DSL;

/**
 * {@code sluice.lineage_alias}: a dataset named by its location (namespace, name: a lakehouse
 * table's files) → the name Sluice knows it by (its catalog table), so that other tools' events
 * naming the location are stored under that name. Each alias is written or looked up once per
 * instance (cached). Statements run on the instance's {@code dsl} (auto-commit, or the caller's
 * transaction). Thread-safe.
 */
final class DatasetAliases {

    /** The table: {@code namespace}, {@code name} (the key), {@code dataset}. */
    static final Table<?> TABLE = DSL.table(DSL.name("sluice", "lineage_alias"));

    private final DSLContext dsl;
    /** The aliases this instance recorded or found, by namespace + "\n" + name. */
    private final Map<String, String> aliases = new ConcurrentHashMap<>();

    DatasetAliases(DSLContext dsl) {
        this.dsl = dsl;
    }

    /** Records that ({@code namespace}, {@code name}) is dataset {@code dataset}; once per alias and instance. */
    void record(String namespace, String name, String dataset) {
        String key = namespace + "\n" + name;
        if (dataset.equals(aliases.get(key))) {
            return;
        }
        Field<String> ns = DSL.field(DSL.name("namespace"), String.class);
        Field<String> nm = DSL.field(DSL.name("name"), String.class);
        Field<String> ds = DSL.field(DSL.name("dataset"), String.class);
        try {
            if (dsl.update(TABLE).set(ds, dataset).where(ns.eq(namespace), nm.eq(name)).execute() == 0) {
                dsl.insertInto(TABLE).columns(ns, nm, ds).values(namespace, name, dataset).execute();
            }
        } catch (IntegrityConstraintViolationException raced) {
            dsl.update(TABLE).set(ds, dataset).where(ns.eq(namespace), nm.eq(name)).execute(); // another writer inserted it first
        }
        aliases.put(key, dataset);
    }

    /**
     * The name a dataset of another tool's event is known by: through {@code sluice.lineage_alias}
     * (a local path normalized first: {@code file://} or {@code file:} namespaces, a trailing slash,
     * {@code .} and {@code ..} segments), else its own name.
     */
    String knownAs(String rawNamespace, String rawName) {
        String namespace = rawNamespace;
        String name = rawName;
        if (Set.of("file", "file:", "file://", "file:///").contains(namespace) && name.startsWith("/")) {
            LocationName local = LocationName.of(name);
            namespace = local.namespace();
            name = local.name();
        }
        String key = namespace + "\n" + name;
        String cached = aliases.get(key);
        if (cached != null) {
            return cached;
        }
        String dataset = dsl.select(DSL.field(DSL.name("dataset"), String.class)).from(TABLE)
                .where(DSL.field(DSL.name("namespace"), String.class).eq(namespace), DSL.field(DSL.name("name"), String.class).eq(name))
                .fetchOne(0, String.class);
        if (dataset != null) {
            aliases.put(key, dataset);
        }
        return dataset == null ? rawName : dataset;
    }
}
