package dev.sluice.batch.bronze;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.jspecify.annotations.Nullable;

/**
 * {@code _row_hash}: SHA-256 (hex) over a row's values as text, fields separated by U+001F, NULL
 * written as {@code \N}, a decimal in plain notation at its column's scale ({@code 1.50}, never
 * {@code 1.5E+0}: the readers fit every decimal to its column's scale, so one value has one text on
 * any database). Exact duplicate source rows have equal hashes. Not thread-safe (one digest per
 * instance).
 */
public final class RowHasher {

    private static final HexFormat HEX = HexFormat.of();
    private final MessageDigest sha;

    public RowHasher() {
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The hash of {@code values}. */
    public String hash(Object[] values) {
        return hash(values, null);
    }

    /** The hash of {@code values} and, for a row with contract violations, their raw text (JSON). */
    public String hash(Object[] values, @Nullable String parseErrors) {
        for (Object v : values) {
            sha.update(text(v).getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0x1F);
        }
        if (parseErrors != null) {
            sha.update(parseErrors.getBytes(StandardCharsets.UTF_8));
        }
        return HEX.formatHex(sha.digest());
    }

    /** A value as hashed: {@code \N} for NULL, a decimal in plain notation, anything else as {@code toString()}. */
    static String text(@Nullable Object v) {
        return v == null ? "\\N" : v instanceof BigDecimal d ? d.toPlainString() : v.toString();
    }
}
