package dev.sluice.config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a Silver table's {@code quarantine:} rules, in order (the first that matches a row sends
 * it to {@code sluice.quarantine}):
 * <pre>
 * quarantine:
 *   - id: delay_out_of_range              # required; unique in the table; at most 100 characters
 *     when: delay &lt; -120 OR delay &gt; 2880  # required; an SQL condition over the Bronze columns
 *     reason: delay_min is outside [-120, 2880] minutes   # required; at most 1000 characters
 *     max_share: 0.001                    # optional: a fraction in [0, 1]; the transform gate judges it; default none
 *     severity: warn                      # error (default) or warn: what exceeding max_share does
 * </pre>
 * Each bad key is a problem with its key path; a rule without {@code id}, {@code when} or
 * {@code reason} is left out. Stateless.
 */
final class QuarantineRuleReader {

    /** The longest quarantine rule id and reason ({@code sluice.quarantine} holds VARCHAR(100) and VARCHAR(1000)). */
    static final int MAX_RULE_ID = 100;
    static final int MAX_RULE_REASON = 1_000;

    private QuarantineRuleReader() {
    }

    /** The rules of table {@code t} ({@code layers.silver[i]}), in declaration order; empty without {@code quarantine}. */
    static List<QuarantineRule> rules(YamlCursor t) {
        List<QuarantineRule> rules = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (YamlCursor r : t.list("quarantine", false)) {
            r.allowOnly(Set.of("id", "when", "reason", "max_share", "severity"));
            Optional<String> id = r.text("id", true);
            Optional<String> when = r.text("when", true);
            Optional<String> reason = r.text("reason", true);
            id.filter(i -> !ids.add(i)).ifPresent(i -> r.problem("id", i, "duplicate rule id"));
            id.filter(i -> i.length() > MAX_RULE_ID).ifPresent(i -> r.problem("id", i, "a rule id has at most " + MAX_RULE_ID
                    + " characters (sluice.quarantine.rule_id)"));
            reason.filter(x -> x.length() > MAX_RULE_REASON).ifPresent(x -> r.problem("reason", x, "a reason has at most "
                    + MAX_RULE_REASON + " characters (sluice.quarantine.reason); this one has " + x.length()));
            Double maxShare = r.text("max_share", false).map(m -> {
                if (!CheckReader.isNumber(m) || Double.parseDouble(m) < 0 || Double.parseDouble(m) > 1) {
                    r.problem("max_share", m, "a fraction in [0, 1], e.g. 0.001");
                    return null;
                }
                return Double.parseDouble(m);
            }).orElse(null);
            Severity severity = r.text("severity", false).map(v -> Severity.parse(v).orElseGet(() -> {
                r.problem("severity", v, "error or warn");
                return Severity.ERROR;
            })).orElse(Severity.ERROR);
            if (id.isPresent() && when.isPresent() && reason.isPresent()) {
                rules.add(new QuarantineRule(id.get(), when.get(), reason.get(), maxShare, severity));
            }
        }
        return rules;
    }
}
