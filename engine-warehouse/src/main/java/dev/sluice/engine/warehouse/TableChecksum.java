package dev.sluice.engine.warehouse;

import dev.sluice.config.ColumnSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.Partition;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.impl.DSL;

/**
 * The checksum of a Silver/Gold partition: SHA-256 (hex) over the business columns (no
 * {@code _} columns), rows ordered by all business columns (key columns first). Each value is
 * written as text ({@code \N} for NULL, a decimal in plain notation), fields separated by U+001F and rows ended by U+001E.
 * Equal checksums mean equal rows on any database that formats the values the same way. Stateless
 * and thread-safe.
 */
public final class TableChecksum {

    private TableChecksum() {
    }

    /** The checksum of {@code partition} of {@code table}. */
    public static String of(DSLContext dsl, TableSpec table, Partition partition) {
        List<Field<?>> fields = table.columns().stream().map(ColumnSpec::name)
                .<Field<?>>map(n -> DSL.field(DSL.name(n))).toList();
        List<Field<?>> order = new ArrayList<>();
        table.key().forEach(k -> order.add(DSL.field(DSL.name(k))));
        fields.stream().filter(f -> !table.key().contains(f.getName())).forEach(order::add);
        MessageDigest sha = sha256();
        try (var cursor = dsl.select(fields).from(LayerTables.table(table.table()))
                .where(DSL.field(DSL.name("_partition")).eq(partition.key()))
                .orderBy(order.stream().map(Field::asc).toList()).fetchLazy()) {
            for (Record r : cursor) {
                for (int i = 0; i < fields.size(); i++) {
                    Object v = r.get(i);
                    sha.update((v == null ? "\\N" : v instanceof BigDecimal d ? d.toPlainString() : v.toString())
                            .getBytes(StandardCharsets.UTF_8));
                    sha.update((byte) 0x1F);
                }
                sha.update((byte) 0x1E);
            }
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
