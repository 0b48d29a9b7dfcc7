package dev.sluice.lineage.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.sluice.core.SluiceException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The identity of an event's body: SHA-256 (64 lower-case hex digits) of its JSON written with
 * object keys sorted and no spacing, so that the same event formatted by another client (key
 * order, whitespace) has the same digest. Numbers and strings are compared as written ({@code 1}
 * and {@code 1.0} differ). Stateless, thread-safe.
 */
final class CanonicalJson {

    private static final JsonMapper SORTED = JsonMapper.builder().enable(JsonNodeFeature.WRITE_PROPERTIES_SORTED).build();

    private CanonicalJson() {
    }

    /** The digest of {@code json}. */
    static String sha256(JsonNode json) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            return HexFormat.of().formatHex(sha.digest(SORTED.writeValueAsString(json).getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException | JsonProcessingException e) {
            throw new SluiceException("cannot digest a lineage event: " + e.getMessage(), e);
        }
    }

    /**
     * The digest of the JSON text {@code json}.
     *
     * @throws SluiceException when it is not JSON
     */
    static String sha256(String json) {
        try {
            return sha256(SORTED.readTree(json));
        } catch (JsonProcessingException e) {
            throw new SluiceException("a lineage event is not JSON: " + e.getOriginalMessage(), e);
        }
    }
}
