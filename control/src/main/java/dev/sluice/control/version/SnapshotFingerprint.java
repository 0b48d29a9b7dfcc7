package dev.sluice.control.version;

import dev.sluice.control.landing.LandedFileRepository;
import dev.sluice.config.ColumnSpec;
import dev.sluice.config.QuarantineRule;
import dev.sluice.config.TableSpec;
import dev.sluice.core.Layer;
import dev.sluice.core.Partition;
import dev.sluice.warehouse.meta.PublishedPartitionTable;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.impl.DSL;

/**
 * What a table partition is built from, as SHA-256 (hex): the table's SQL, columns and quarantine
 * rules, the input partition's key (unless the input is a snapshot), and the input partition's
 * state: for a Bronze input its current loads (source, sha256), otherwise its published version. Equal fingerprints mean a rebuild would write
 * the same rows (given the same referenced tables). Stateless.
 */
public final class SnapshotFingerprint {

    private SnapshotFingerprint() {
    }

    public static String of(DSLContext dsl, TableSpec table, TableSpec input, Partition in) {
        MessageDigest sha = ofDefinition(table);
        for (QuarantineRule r : table.quarantine()) {
            update(sha, r.id() + ":" + r.when());
        }
        if (!in.equals(Partition.NONE)) {
            // two partitions of the input are two inputs, even with equal versions (every day's first Silver version is 1) or
            // the same file (a column-partitioned source): a snapshot built from day 2 is not day 1's
            update(sha, "partition " + in.key());
        }
        if (input.layer() == Layer.BRONZE) {
            for (Record r : dsl.select(DSL.field(DSL.name("source")), DSL.field(DSL.name("sha256")))
                    .from(LandedFileRepository.LANDED_FILES)
                    .where(DSL.field(DSL.name("bronze_table")).eq(input.table().qualifiedName()),
                            DSL.field(DSL.name("partition_key")).eq(in.key()),
                            DSL.field(DSL.name("current_load"), Boolean.class).isTrue())
                    .orderBy(DSL.field(DSL.name("source"))).fetch()) {
                update(sha, r.get(0) + "@" + r.get(1));
            }
        } else {
            Integer v = new PartitionVersions(dsl).published(input.table(), in).orElse(null);
            update(sha, input.table().qualifiedName() + "#" + v);
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    /**
     * The fingerprint of a rollup partition: the table's SQL and columns and the published version
     * of every input partition from {@code range[0]} to {@code range[1]} (keys inclusive).
     */
    public static String ofRange(DSLContext dsl, TableSpec table, TableSpec input, Partition[] range) {
        MessageDigest sha = ofDefinition(table);
        Field<String> key = DSL.field(DSL.name("partition_key"), String.class);
        for (Record r : dsl.select(key, DSL.field(DSL.name("version")))
                .from(PublishedPartitionTable.TABLE)
                .where(DSL.field(DSL.name("dataset")).eq(input.table().qualifiedName()), key.between(range[0].key(), range[1].key()))
                .orderBy(key).fetch()) {
            update(sha, r.get(0) + "#" + r.get(1));
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    /** A digest begun with the table's SQL and columns. */
    private static MessageDigest ofDefinition(TableSpec table) {
        MessageDigest sha = sha256();
        update(sha, table.sql());
        for (ColumnSpec c : table.columns()) {
            update(sha, c.name() + ":" + c.typeId());
        }
        return sha;
    }

    private static void update(MessageDigest sha, String s) {
        sha.update(s.getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
