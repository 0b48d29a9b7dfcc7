package dev.sluice.batch.refine;

import dev.sluice.config.ColumnSpec;
import dev.sluice.config.ColumnType;
import dev.sluice.config.ContractSpec;
import java.util.ArrayList;
import java.util.List;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * The quarantine rules a contract's allowed values imply for a Silver table fed by its source
 * (Bronze alias {@code b}): {@code contract_range} for a value outside {@code [min, max]} and
 * {@code contract_allowed} for a value not in {@code allowed}, in contract column order, each
 * reason naming the column, the bound or set, and the contract. NULL matches neither (nullability
 * is judged while reading). Stateless.
 */
final class ContractRules {

    /** Rule id of a value outside its contract range. */
    static final String RANGE = "contract_range";
    /** Rule id of a value outside its contract set. */
    static final String ALLOWED = "contract_allowed";

    record Rule(String id, Condition when, String reason) {
    }

    private ContractRules() {
    }

    static List<Rule> of(ContractSpec contract) {
        List<Rule> rules = new ArrayList<>();
        for (ColumnSpec c : contract.columns()) {
            Field<Object> v = DSL.field(DSL.name("b", c.name()));
            var a = c.allowed();
            if (a.hasRange()) {
                List<Condition> outside = new ArrayList<>();
                if (a.min() != null) {
                    outside.add(v.lt(literal(c.type(), a.min())));
                }
                if (a.max() != null) {
                    outside.add(v.gt(literal(c.type(), a.max())));
                }
                rules.add(new Rule(RANGE, DSL.or(outside), c.name() + " is outside ["
                        + (a.min() == null ? "-∞" : a.min()) + ", " + (a.max() == null ? "∞" : a.max())
                        + "] (contract " + contract.label() + ")"));
            }
            if (!a.values().isEmpty()) {
                List<Field<Object>> set = a.values().stream().map(x -> literal(c.type(), x)).toList();
                rules.add(new Rule(ALLOWED, v.notIn(set), c.name() + " is not one of " + a.values()
                        + " (contract " + contract.label() + ")"));
            }
        }
        return rules;
    }

    /** A contract literal as a typed SQL literal (validated by the contract loader). */
    @SuppressWarnings("unchecked")
    private static Field<Object> literal(ColumnType type, String text) {
        Object value = type.parseLiteral(text).orElseThrow(() -> new IllegalArgumentException(text + " is not " + type.withArticle()));
        return (Field<Object>) (Field<?>) DSL.inline(value);
    }
}
