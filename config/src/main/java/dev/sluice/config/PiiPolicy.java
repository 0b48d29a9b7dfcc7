package dev.sluice.config;

import java.util.Locale;
import java.util.Optional;

/**
 * What the way into Silver does with a contract column tagged PII. Bronze and the quarantine keep
 * the raw value (for replay and erasure requests); Silver and Gold never see it.
 */
public enum PiiPolicy {
    /**
     * A keyed token: {@code <key version>:<hex HMAC-SHA256(key, UTF-8 text of the value)>} (RFC 2104),
     * e.g. {@code v1:3f0c…}. The same value and key give the same token, so joins and counts of
     * distinct subjects still work; without the key the value cannot be recovered or guessed by
     * hashing candidates. NULL stays NULL.
     */
    HASH,
    /**
     * The value's shape only (strings): each digit becomes {@code 9}, each other character except
     * space and {@code . , ; : & / # ( ) ' -} becomes {@code x}, e.g. {@code 2009 W. 6th St.} →
     * {@code 9999 x. 9xx xx.}. Length and punctuation remain. NULL stays NULL.
     */
    MASK,
    /** The column is not passed to Silver at all. */
    DROP,
    /** The raw value is passed on, explicitly (a reviewed decision, e.g. a public figure's name). */
    KEEP;

    /** The spec spelling, e.g. {@code hash}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses the spec spelling; empty when unknown. */
    public static Optional<PiiPolicy> parse(String text) {
        for (PiiPolicy p : values()) {
            if (p.id().equals(text)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }
}
