package dev.sluice.hotpath;

import dev.sluice.config.ColumnSpec;
import dev.sluice.config.ContractSpec;
import dev.sluice.config.QuarantineRule;
import dev.sluice.core.SluiceException;
import dev.sluice.warehouse.ColumnTypes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jooq.CaseConditionStep;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.DataType;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.RowN;
import org.jooq.SQLDialect;
import org.jooq.Table;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * The Silver quarantine rules of {@code hot_path.rules_from}, applied to decoded events: the rules
 * are SQL over the source's columns, so a batch of events is judged in one read-only query over a
 * table of the batch with those columns ({@code SELECT i, CASE WHEN rule1 THEN 1 … END FROM … e(i,
 * columns…)}), reference lookups such as {@code silver.airports} included. On PostgreSQL and H2 the
 * table is the batch's column arrays unnested by one constant statement ({@link RulesStatement});
 * elsewhere, or for a batch the arrays cannot carry, a {@code VALUES} table of the batch's values.
 * An event is judged exactly as Silver judges the same row; first match wins, as in Silver.
 * Immutable and thread-safe.
 */
public final class EventRules {

    /** Bind values per statement at most (PostgreSQL allows 32,767). */
    private static final int MAX_BINDS = 30_000;
    /** Events per array statement at most: bounds the arrays' size in one message (a batch is max.poll.records). */
    private static final int MAX_ARRAY = 10_000;

    private final ContractSpec contract;
    private final List<QuarantineRule> rules;
    private final String from;
    private final RulesStatement statement;

    /**
     * @param from the Silver table the rules are declared on (for messages)
     */
    public EventRules(ContractSpec contract, List<QuarantineRule> rules, String from) {
        this.contract = contract;
        this.rules = List.copyOf(rules);
        this.from = from;
        this.statement = new RulesStatement(contract.columns(), this.rules);
    }

    /** True when there is no rule to apply. */
    public boolean isEmpty() {
        return rules.isEmpty();
    }

    /**
     * The events of {@code events} (by index) that a rule quarantines, with the first matching rule
     * as the violation ({@code ruleId} the rule's id, the reason naming {@code rules_from}).
     *
     * @throws SluiceException when a rule cannot be evaluated (e.g. the reference table it reads is
     *     not loaded yet), naming the rule set and the database's reason
     */
    public Map<Integer, EventDecoder.Violation> judge(DSLContext dsl, List<EventDecoder.Event> events) {
        Map<Integer, EventDecoder.Violation> out = new HashMap<>();
        if (rules.isEmpty() || events.isEmpty()) {
            return out;
        }
        if (RulesStatement.supports(dsl) && RulesStatement.carries(dsl, events)) {
            judgeByArrays(dsl, events, out);
            return out;
        }
        int perStatement = Math.max(1, MAX_BINDS / (contract.columns().size() + 1));
        for (int from0 = 0; from0 < events.size(); from0 += perStatement) {
            judge(dsl, events, from0, Math.min(events.size(), from0 + perStatement), out);
        }
        return out;
    }

    /** The batch by {@link RulesStatement}, in pieces of at most {@link #MAX_ARRAY} events. */
    private void judgeByArrays(DSLContext dsl, List<EventDecoder.Event> events, Map<Integer, EventDecoder.Violation> out) {
        String sql = statement.sql(dsl);
        boolean pg = dsl.family() == SQLDialect.POSTGRES;
        Map<Integer, Integer> matched = new HashMap<>();
        try {
            dsl.connection(c -> {
                for (int lo = 0; lo < events.size(); lo += MAX_ARRAY) {
                    statement.run(c, sql, pg, events, lo, Math.min(events.size(), lo + MAX_ARRAY), matched);
                }
            });
        } catch (DataAccessException ex) {
            throw refused(ex);
        }
        matched.forEach((event, r) -> out.put(event, violation(rules.get(r))));
    }

    private void judge(DSLContext dsl, List<EventDecoder.Event> events, int lo, int hi, Map<Integer, EventDecoder.Violation> out) {
        List<ColumnSpec> columns = contract.columns();
        RowN[] rows = new RowN[hi - lo];
        for (int i = lo; i < hi; i++) {
            List<Field<?>> values = new ArrayList<>(columns.size() + 1);
            values.add(DSL.val(i, SQLDataType.INTEGER).cast(SQLDataType.INTEGER));
            for (ColumnSpec c : columns) {
                values.add(typed(events.get(i).values().get(c.name()), c));
            }
            rows[i - lo] = DSL.row(values);
        }
        String[] names = new String[columns.size() + 1];
        names[0] = "_event_index";
        for (int c = 0; c < columns.size(); c++) {
            names[c + 1] = columns.get(c).name();
        }
        Table<?> e = DSL.values(rows).as("e", names);
        Field<Integer> index = DSL.field(DSL.name("e", "_event_index"), Integer.class);
        CaseConditionStep<Integer> which = DSL.when(DSL.condition(rules.get(0).when()), DSL.inline(0));
        Condition any = DSL.condition(rules.get(0).when());
        for (int r = 1; r < rules.size(); r++) {
            which = which.when(DSL.condition(rules.get(r).when()), DSL.inline(r));
            any = any.or(DSL.condition(rules.get(r).when()));
        }
        try {
            for (Record row : dsl.select(index, which.otherwise(DSL.inline(-1))).from(e).where(any).fetch()) {
                out.put(row.get(0, Integer.class), violation(rules.get(row.get(1, Integer.class))));
            }
        } catch (DataAccessException ex) {
            throw refused(ex);
        }
    }

    private EventDecoder.Violation violation(QuarantineRule rule) {
        return new EventDecoder.Violation(rule.id(), rule.reason() + " (rule " + rule.id() + " of " + from + ")");
    }

    private SluiceException refused(DataAccessException ex) {
        return new SluiceException("the quarantine rules of " + from + " cannot judge events: " + firstLine(ex.getMessage())
                + " (a rule reading a reference table needs its batch load first, e.g. sluice run <pipeline>)", ex);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Field<?> typed(Object value, ColumnSpec c) {
        DataType type = ColumnTypes.of(c);
        return DSL.val(value, type).cast(type);
    }

    private static String firstLine(String s) {
        return s == null ? "" : s.lines().findFirst().orElse("");
    }
}
