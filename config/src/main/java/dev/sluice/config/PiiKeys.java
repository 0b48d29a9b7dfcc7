package dev.sluice.config;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The versioned HMAC keys of the {@link PiiPolicy#HASH} policy: {@code pii.keys} of the spec, each
 * value from an environment variable, and {@code pii.active_key}, the version new tokens use.
 * Rotating a key means adding {@code v2}, making it active and re-running the partitions; tokens
 * carry their key version, so old and new tokens never collide.
 *
 * <p>Key bytes are the UTF-8 bytes of the variable's value, at least {@value #MIN_KEY_BYTES} bytes
 * (RFC 2104 §3: no shorter than the hash output). {@link #toString()} never shows a key; nothing in
 * Sluice logs one. Immutable and thread-safe.
 */
public final class PiiKeys {

    /** The shortest key accepted, in bytes. */
    public static final int MIN_KEY_BYTES = 32;
    /** No keys: a spec without {@code hash} policies. */
    public static final PiiKeys NONE = new PiiKeys(Map.of(), null);

    private final Map<String, byte[]> keys;
    private final String active;

    PiiKeys(Map<String, String> keys, String active) {
        TreeMap<String, byte[]> copy = new TreeMap<>();
        keys.forEach((v, k) -> copy.put(v, k.getBytes(StandardCharsets.UTF_8)));
        this.keys = copy;
        this.active = active;
    }

    /** The active key version (e.g. {@code v1}), or empty when the spec has no keys. */
    public Optional<String> activeVersion() {
        return Optional.ofNullable(active);
    }

    /**
     * The active key's bytes (a copy).
     *
     * @throws IllegalStateException when there is no active key (validation prevents it for a spec
     *     with {@code hash} policies)
     */
    public byte[] activeKey() {
        if (active == null) {
            throw new IllegalStateException("no pii.active_key");
        }
        return keys.get(active).clone();
    }

    @Override
    public String toString() {
        return "PiiKeys[versions=" + keys.keySet() + ", active=" + active + ", values hidden]";
    }
}
