package dev.sluice.hotpath;

import dev.sluice.config.WindowSpec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.jooq.DSLContext;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

/**
 * The contents a {@code distinct_by_content} tumbling or sliding window has counted, on PostgreSQL:
 * the table {@code schema.<window table>_content_keys} ({@code _content_key UUID}, primary key),
 * one row per content counted, keyed by the first 128 bits of its SHA-256 content hash
 * ({@link #key}). Why not the hash's 64 hex characters, as the table {@code <window>_contents} of
 * Sluice before 2026-12-04 kept it: the claim is a B-tree insert at a random place per event, the
 * largest statement of the hot path on PostgreSQL (34 % of the server's statement time in the
 * {@code hotsink} bench), and a 16-byte {@code uuid} compares as memory where a {@code varchar}
 * compares under the column's collation, in half the index's space (measured on this machine,
 * 500,000 claims in batches of 2,000: about 25–35 % less time). Two different contents share a key
 * with probability about n²/2¹²⁹ (n contents; 10¹² contents: 1.5·10⁻¹⁵), and then the window counts
 * them as one. A window kept with the older table gets the new one at its first start, seeded from
 * the sink as any new one (stop its other consumers meanwhile, as for any upgrade); the older table
 * is then unused and can be dropped. A batch claims its events' contents in its transaction
 * ({@link #claim}: {@code INSERT … ON CONFLICT DO NOTHING RETURNING}) and counts only the events
 * whose content it claimed, so the primary key decides, across concurrent batches, which one
 * counts a content: a batch inserting a hash that another's uncommitted insert holds waits for that
 * commit (or rollback), then finds it (or claims it). This replaces the window's table lock held
 * from the content lookup to the commit, which let one consumer's batch write its windows at a time
 * (measured: the two consumers' 13,264 events/s with the lock against 26,959 counting every event).
 * Keys are inserted in ascending order, so two batches never wait on each other's claims in a
 * cycle. Sessions are recomputed under the lock instead ({@link WindowRecompute}); on H2 the window
 * keeps the lock and asks the sink ({@link WindowStore}). Thread-safe.
 */
final class WindowContents {

    private final Table<?> table;
    private final Table<?> sink;
    private final org.jooq.Name key;
    /** The claim's SQL, rendered at the first claim (the same for every batch); racing first claims render it alike. */
    private volatile @Nullable String claimSql;

    /** @param sink the sink table ({@link SinkTable#table}) */
    WindowContents(WindowSpec window, Table<?> sink) {
        this.table = DSL.table(DSL.name(window.table().schema(), name(window.table().table())));
        this.key = DSL.name("_content_key");
        this.sink = sink;
    }

    /**
     * {@code <table>_content_keys}; a name over PostgreSQL's 63 bytes ends in the window table's
     * name's hash instead, so that two long window names never share one contents table.
     */
    static String name(String windowTable) {
        String name = windowTable + "_content_keys";
        return name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length <= 63 ? name
                : windowTable.substring(0, Math.min(windowTable.length(), 40)) + "_content_keys_" + Integer.toHexString(windowTable.hashCode());
    }

    /**
     * The key of the content whose hash is {@code hash} (lowercase hex, at least 32 digits, as
     * {@code EventDecoder} gives it): its first 32 digits as a {@code uuid}, in PostgreSQL's
     * {@code uuid} input form without hyphens (PostgreSQL docs §8.12). The keys of hashes in
     * ascending text order ascend as PostgreSQL orders {@code uuid}s (byte by byte, unsigned).
     */
    static String key(String hash) {
        return hash.substring(0, 32);
    }

    /**
     * Creates the table when it does not exist, in one transaction with its first rows: the keys of
     * the content hashes of the sink's events counted so far (not late), which is what the window has counted
     * when it was kept under the lock before this table. Idempotent.
     */
    void create(DSLContext dsl) {
        dsl.transaction(c -> {
            DSLContext tx = c.dsl();
            boolean exists = tx.resultQuery("SELECT to_regclass({0}) IS NOT NULL", DSL.inline(tx.render(table))).fetchOne(0, Boolean.class);
            if (exists) {
                return;
            }
            tx.createTableIfNotExists(table).column(key, org.jooq.impl.SQLDataType.UUID.notNull()).primaryKey(key).execute();
            tx.execute("INSERT INTO " + tx.render(table) + " (" + tx.render(key) + ") SELECT DISTINCT CAST(substr("
                    + tx.render(DSL.name("_content_hash")) + ", 1, 32) AS uuid) FROM " + tx.render(sink) + " WHERE NOT "
                    + tx.render(DSL.name("_late")) + " ON CONFLICT DO NOTHING");
        });
    }

    /**
     * Claims the contents {@code hashes} for the caller's transaction {@code tx}: the ones no batch
     * has counted (committed, or committed meanwhile by a batch this one waited for).
     *
     * @return the hashes claimed now, each of which the caller counts once
     */
    Set<String> claim(DSLContext tx, List<String> hashes) {
        // by key, in ascending order; of hashes sharing a key (see the class) the first in that order stands for it
        Map<String, String> byKey = new LinkedHashMap<>();
        new TreeSet<>(hashes).forEach(h -> byKey.putIfAbsent(key(h), h));
        if (byKey.isEmpty()) {
            return Set.of();
        }
        String sql = claimSql;
        if (sql == null) {
            sql = "INSERT INTO " + tx.render(table) + " (" + tx.render(key) + ") SELECT CAST(k AS uuid) FROM unnest({0}) AS u(k)"
                    + " ON CONFLICT DO NOTHING RETURNING " + tx.render(key);
            claimSql = sql;
        }
        List<String> keys = new ArrayList<>(byKey.keySet());
        Set<String> claimed = new HashSet<>();
        tx.resultQuery(sql, DSL.val(keys.toArray(String[]::new), org.jooq.impl.SQLDataType.VARCHAR.array())).fetch()
                .forEach(r -> claimed.add(byKey.get(r.get(0, UUID.class).toString().replace("-", ""))));
        return claimed;
    }
}
