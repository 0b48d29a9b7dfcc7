package dev.sluice.config;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads what a spec says about personal data (docs/personal-data.md): each source's
 * {@code pii:} policies and the pipeline's {@code pii:} HMAC keys.
 * <pre>
 * sources:
 *   - pii:                       # a policy per column the contract tags PII (pii: true), and only those
 *       first_name: hash         # hash, mask (string columns only), drop or keep
 * pii:                           # required when a source hashes a column
 *   active_key: v1               # required: one of keys; new tokens use it
 *   keys:                        # required: version (a lower-case identifier) → a key of at least
 *     v1: ${SLUICE_PII_KEY_V1}   #   {@value PiiKeys#MIN_KEY_BYTES} bytes (UTF-8), from the environment
 * </pre>
 * A PII column without a policy is not a problem here but design rule {@code pii.policy}
 * ({@code design.DesignRules}): it blocks run, scheduler and backfill. Problems are added to the cursor's list with
 * their key paths and never show a key's value. Stateless.
 */
final class PiiReader {

    private PiiReader() {
    }

    /**
     * {@code sources[i].pii}: a policy for every column the contract tags PII, and only for those.
     *
     * @param s the source
     * @param contract the source's contract
     * @return the valid policies by column, in file order
     */
    static Map<String, PiiPolicy> policies(YamlCursor s, ContractSpec contract) {
        Map<String, PiiPolicy> policies = new LinkedHashMap<>();
        for (Map.Entry<String, YamlCursor> e : s.entries("pii", false)) {
            String column = e.getKey();
            Optional<ColumnSpec> col = contract.columns().stream().filter(c -> c.name().equals(column)).findFirst();
            Optional<PiiPolicy> policy = e.getValue().scalar().flatMap(text -> {
                Optional<PiiPolicy> parsed = PiiPolicy.parse(text);
                if (parsed.isEmpty()) {
                    e.getValue().problemHere(text, "unknown PII policy; one of hash, mask, drop, keep");
                }
                return parsed;
            });
            if (col.isEmpty()) {
                e.getValue().problemHere(column, "not a column of contract " + contract.label());
            } else if (!col.get().pii()) {
                e.getValue().problemHere(column, "not tagged PII in contract " + contract.label()
                        + "; tag it (pii: true) or remove the policy");
            } else if (policy.isPresent()) {
                if (policy.get() == PiiPolicy.MASK && col.get().type() != ColumnType.STRING) {
                    e.getValue().problemHere("mask", "mask keeps the shape of text; " + column + " is "
                            + col.get().type().id() + ": use hash or drop");
                } else {
                    policies.put(column, policy.get());
                }
            }
        }
        // a PII column without a policy is design rule pii.policy (DesignRules): it blocks run, scheduler and backfill
        return policies;
    }

    /**
     * {@code pii.active_key} and {@code pii.keys}; required when a source hashes a column. Problems
     * never show a key's value.
     *
     * @param c the spec's root
     * @param hashUsed true when a source's policy is {@code hash}
     * @param requireSecrets false for inspection ({@link PipelineSpecLoader#forInspection}): a key
     *     that is not set, or is too short, is left out instead of being a problem
     * @param env the environment the keys are read from when secrets are not required
     * @return the keys, or {@link PiiKeys#NONE} when there are none or the active one is not valid
     */
    static PiiKeys keys(YamlCursor c, boolean hashUsed, boolean requireSecrets, EnvInterpolator env) {
        Optional<YamlCursor> pii = c.map("pii", false);
        if (pii.isEmpty()) {
            if (hashUsed) {
                c.problem("pii", "(missing)", "a source hashes PII: give pii.keys (versioned HMAC keys from environment variables) and pii.active_key");
            }
            return PiiKeys.NONE;
        }
        YamlCursor p = pii.get();
        p.allowOnly(Set.of("active_key", "keys"));
        Map<String, String> keys = new LinkedHashMap<>();
        Set<String> versions = new HashSet<>();
        for (Map.Entry<String, YamlCursor> e : p.entries("keys", true)) {
            versions.add(e.getKey());
            if (!ContractLoader.IDENTIFIER.matcher(e.getKey()).matches()) {
                e.getValue().problemHere(e.getKey(), "a key version is a lower-case identifier, e.g. v1");
                continue;
            }
            if (!requireSecrets) {
                e.getValue().rawText().map(env::interpolate).filter(r -> r.unresolved().isEmpty())
                        .filter(r -> r.value().getBytes(StandardCharsets.UTF_8).length >= PiiKeys.MIN_KEY_BYTES)
                        .ifPresent(r -> keys.put(e.getKey(), r.value()));
                continue;
            }
            e.getValue().scalar().ifPresent(k -> {
                if (k.getBytes(StandardCharsets.UTF_8).length < PiiKeys.MIN_KEY_BYTES) {
                    e.getValue().problemHere("****", "an HMAC key has at least " + PiiKeys.MIN_KEY_BYTES
                            + " bytes (e.g. openssl rand -base64 32); this one is shorter");
                } else {
                    keys.put(e.getKey(), k);
                }
            });
        }
        Optional<String> active = p.text("active_key", true);
        active.filter(a -> !versions.contains(a))
                .ifPresent(a -> p.problem("active_key", a, "not one of pii.keys: " + String.join(", ", versions)));
        return active.filter(keys::containsKey).map(a -> new PiiKeys(keys, a)).orElse(PiiKeys.NONE);
    }
}
