package dev.sluice.engine.warehouse;

import dev.sluice.config.ColumnSpec;
import dev.sluice.config.PiiKeys;
import dev.sluice.config.PiiPolicy;
import dev.sluice.config.SourceSpec;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jooq.Field;
import org.jooq.SQLDialect;
import org.jooq.SelectField;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * The columns of a Bronze table as a Silver SELECT sees them through {@code {input}}: PII columns
 * replaced by their policy ({@link PiiPolicy}), computed by the database in one set-based
 * statement.
 *
 * <p>{@code hash} is HMAC-SHA256 (RFC 2104 §2) written with the database's SHA-256 function:
 * {@code H((K ⊕ opad) || H((K ⊕ ipad) || m))}, with the padded key halves sent as bind values
 * (never in SQL text, never logged: jOOQ execute logging is off) and {@code m} the UTF-8 bytes of
 * the value's text. The result is {@code <key version>:<64 lower-case hex digits>}, equal to
 * {@code javax.crypto.Mac("HmacSHA256")} over the same bytes. Immutable and thread-safe.
 */
final class PiiProjection {

    /** SHA-256 block size in bytes (FIPS 180-4 §5.3.3 / RFC 2104's B). */
    private static final int BLOCK = 64;

    private final SQLDialect dialect;
    private final SourceSpec source;
    private final PiiKeys keys;

    PiiProjection(SQLDialect dialect, SourceSpec source, PiiKeys keys) {
        this.dialect = dialect;
        this.source = source;
        this.keys = keys;
    }

    /** True when some column is not passed on as is. */
    boolean transforms() {
        return source.pii().values().stream().anyMatch(p -> p != PiiPolicy.KEEP);
    }

    /**
     * The SELECT list over Bronze alias {@code b}: {@code metadata}, then the contract columns
     * (dropped ones left out, others transformed under their own name), then {@code extra} (columns
     * Bronze gained by drift) as they are.
     */
    List<SelectField<?>> fields(List<String> metadata, List<ColumnSpec> extra) {
        List<SelectField<?>> out = new ArrayList<>();
        metadata.forEach(m -> out.add(DSL.field(DSL.name("b", m))));
        for (ColumnSpec c : source.contract().columns()) {
            Field<Object> raw = DSL.field(DSL.name("b", c.name()));
            switch (source.policy(c.name())) {
                case KEEP -> out.add(raw);
                case DROP -> { }
                case MASK -> out.add(mask(raw).as(c.name()));
                case HASH -> out.add(hash(raw).as(c.name()));
            }
        }
        extra.forEach(c -> out.add(DSL.field(DSL.name("b", c.name()))));
        return out;
    }

    private Field<String> mask(Field<Object> raw) {
        String other = "[^9 .,;:&/#()'-]";
        if (dialect.family() == SQLDialect.POSTGRES) {
            return DSL.field("regexp_replace(regexp_replace({0}, '[0-9]', '9', 'g'), {1}, 'x', 'g')", String.class,
                    raw, DSL.inline(other));
        }
        return DSL.field("REGEXP_REPLACE(REGEXP_REPLACE({0}, '[0-9]', '9'), {1}, 'x')", String.class,
                raw, DSL.inline(other));
    }

    private Field<String> hash(Field<Object> raw) {
        byte[] key = keys.activeKey();
        if (key.length > BLOCK) {
            key = sha256(key);
        }
        byte[] ipad = Arrays.copyOf(key, BLOCK);
        byte[] opad = Arrays.copyOf(key, BLOCK);
        for (int i = 0; i < BLOCK; i++) {
            ipad[i] ^= 0x36;
            opad[i] ^= 0x5c;
        }
        Arrays.fill(key, (byte) 0);
        Field<byte[]> in = DSL.val(ipad, SQLDataType.VARBINARY);
        Field<byte[]> out = DSL.val(opad, SQLDataType.VARBINARY);
        Field<String> prefix = DSL.inline(keys.activeVersion().orElseThrow() + ":");
        Field<String> hex = dialect.family() == SQLDialect.POSTGRES
                ? DSL.field("encode(sha256({0} || sha256({1} || convert_to(CAST({2} AS text), 'UTF8'))), 'hex')",
                        String.class, out, in, raw)
                : DSL.field("LOWER(RAWTOHEX(HASH('SHA-256', {0} || HASH('SHA-256', {1} || STRINGTOUTF8(CAST({2} AS VARCHAR))))))",
                        String.class, out, in, raw);
        return DSL.concat(prefix, hex);
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
