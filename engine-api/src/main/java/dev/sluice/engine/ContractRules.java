package dev.sluice.engine;

import dev.sluice.config.ColumnSpec;
import dev.sluice.config.ColumnType;
import dev.sluice.config.ContractSpec;
import dev.sluice.core.BoundedText;
import java.util.ArrayList;
import java.util.List;
import org.jooq.Condition;
import org.jooq.Field;
import org.jooq.impl.DSL;

/**
 * The quarantine rules a contract's allowed values imply for a Silver table fed by its source
 * (Bronze alias {@code b}): {@code contract_range} for a value outside {@code [min, max]} and
 * {@code contract_allowed} for a value not in {@code allowed}, in contract column order, each
 * reason naming the column, the bound or set, and the contract. A reason is at most
 * {@value #REASON_CHARS} characters ({@code sluice.quarantine.reason} holds 1000): a long set is
 * shown by its first values and a count. NULL matches neither (nullability is judged while
 * reading). Stateless.
 */
public final class ContractRules {

    /** Rule id of a value outside its contract range. */
    static final String RANGE = "contract_range";
    /** Rule id of a value outside its contract set. */
    static final String ALLOWED = "contract_allowed";

    /** The longest reason a rule gives. */
    static final int REASON_CHARS = 1_000;
    /** Characters of an allowed set a reason lists before it counts the rest. */
    static final int SET_CHARS = 600;

    public record Rule(String id, Condition when, String reason) {
    }

    private ContractRules() {
    }

    public static List<Rule> of(ContractSpec contract) {
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
                rules.add(new Rule(RANGE, DSL.or(outside), bounded(c.name() + " is outside ["
                        + (a.min() == null ? "-∞" : a.min()) + ", " + (a.max() == null ? "∞" : a.max())
                        + "] (contract " + contract.label() + ")")));
            }
            if (!a.values().isEmpty()) {
                List<Field<Object>> set = a.values().stream().map(x -> literal(c.type(), x)).toList();
                rules.add(new Rule(ALLOWED, v.notIn(set), bounded(c.name() + " is not one of " + shown(a.values())
                        + " (contract " + contract.label() + ")")));
            }
        }
        return rules;
    }

    /** {@code [a, b, c]}, or its first values within {@value #SET_CHARS} characters and how many more: {@code [a, b, … 147 more of 150]}. */
    static String shown(List<String> values) {
        StringBuilder s = new StringBuilder("[");
        for (int i = 0; i < values.size(); i++) {
            String next = i == 0 ? BoundedText.cut(values.get(0), SET_CHARS / 2) : ", " + values.get(i);
            if (s.length() + next.length() > SET_CHARS) {
                return s.append(i == 0 ? "" : ", ").append("… ").append(values.size() - i).append(" more of ").append(values.size())
                        .append(']').toString();
            }
            s.append(next);
        }
        return s.append(']').toString();
    }

    private static String bounded(String reason) {
        return BoundedText.cut(reason, REASON_CHARS);
    }

    /** A contract literal as a typed SQL literal (validated by the contract loader). */
    @SuppressWarnings("unchecked")
    private static Field<Object> literal(ColumnType type, String text) {
        Object value = type.parseLiteral(text).orElseThrow(() -> new IllegalArgumentException(text + " is not " + type.withArticle()));
        return (Field<Object>) (Field<?>) DSL.inline(value);
    }
}
