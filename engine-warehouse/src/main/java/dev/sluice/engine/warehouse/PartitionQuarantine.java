package dev.sluice.engine.warehouse;

import dev.sluice.warehouse.meta.QuarantineStatus;
import dev.sluice.engine.ContractRules;
import dev.sluice.config.ColumnSpec;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.QuarantineRule;
import dev.sluice.config.SourceSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.Partition;
import dev.sluice.core.RunId;
import dev.sluice.warehouse.meta.QuarantineTable;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.jooq.CaseConditionStep;
import org.jooq.Condition;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.JSONEntry;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;

/**
 * The quarantine of one Silver/Gold table partition in {@code sluice.quarantine}: the rules in the
 * order they are tried, the input rows they match (first match wins; raw record as JSON), and the
 * partition's earlier entries judged again. A rule whose condition is NULL for a row does not match
 * it, so every input row lands in exactly one of the table or the quarantine. Statements run in
 * the caller's transaction. Thread-safe.
 */
final class PartitionQuarantine {

    /** Rule id of a row whose values broke its contract while being read. */
    static final String CONTRACT_VIOLATION = "contract_violation";
    /** Rule id of a row of a column-partitioned source without a partition value. */
    static final String PARTITION_VALUE_MISSING = "partition_value_missing";
    /** Characters of {@code _parse_errors} quoted in a quarantine reason (the whole of it is in record_json). */
    private static final int REASON_CHARS = 900;
    private static final Table<?> QUARANTINE = QuarantineTable.TABLE;
    private static final Field<String> STATUS = DSL.field(DSL.name("status"), String.class);
    private static final String OPEN = QuarantineStatus.OPEN.name();
    private static final String PENDING = QuarantineStatus.PENDING.name();

    private final DSLContext dsl;
    private final PipelineSpec spec;
    private final TableSpec table;
    private final LayerInput input;
    private final List<Rule> rules;
    private final Field<Integer> ruleIndex;

    PartitionQuarantine(DSLContext dsl, PipelineSpec spec, TableSpec table, LayerInput input) {
        this.dsl = dsl;
        this.spec = spec;
        this.table = table;
        this.input = input;
        this.rules = rules();
        this.ruleIndex = ruleIndex(rules);
    }

    /**
     * A quarantine rule as SQL: when it matches, its id and its reason.
     */
    private record Rule(Condition when, Field<String> id, Field<String> reason) {
    }

    /** True when the table has quarantine rules (built-in or declared). */
    boolean hasRules() {
        return !rules.isEmpty();
    }

    /**
     * Of {@code inputRows}, those no rule matches: what the table is built from. They are the
     * complement of the rows {@link #judge} just quarantined (the rule index is never NULL), so when
     * it quarantined none ({@code quarantinedNow} 0) they are {@code inputRows} itself and the rules
     * do not run a second time: a rule's lookup through a published view costs ~80 ms per pass of a
     * flights day on H2 (measured 2026-12-05), and a rule reading another table cannot judge a row
     * differently in the second statement should that table be published in between.
     */
    Condition kept(Condition inputRows, long quarantinedNow) {
        return rules.isEmpty() || quarantinedNow == 0 ? inputRows : inputRows.and(ruleIndex.eq(0));
    }

    /**
     * Judges the partition's input again: its OPEN entries are set aside (PENDING), the rows a rule
     * matches now are inserted OPEN, and the set-aside entries are resolved ({@link #resolvePending}).
     *
     * @param inputRows the condition selecting the partition's input rows (alias {@code b})
     * @param out the table's partition
     * @return the rows quarantined by this run
     */
    long judge(Condition inputRows, Partition out, RunId run) {
        Condition ofPartition = DSL.field(DSL.name("pipeline")).eq(spec.name())
                .and(DSL.field(DSL.name("dataset")).eq(table.table().qualifiedName()))
                .and(DSL.field(DSL.name("partition_key")).eq(out.key()));
        // the partition's OPEN entries are judged again: set aside, then replaced or resolved
        dsl.update(QUARANTINE).set(STATUS, PENDING).where(ofPartition, STATUS.eq(OPEN)).execute();
        long quarantined = quarantine(inputRows, out, run);
        resolvePending(ofPartition, inputRows);
        return quarantined;
    }

    /**
     * The rules in the order they are tried. For a Silver table fed by Bronze, the built-in rules
     * come first: {@code contract_violation} (a row whose values broke its contract while being
     * read, {@code _parse_errors}, with those errors as its reason), {@code partition_value_missing}
     * (a source partitioned by a column: the row has no value there), and the contract's allowed
     * values ({@link ContractRules}); then the spec's rules.
     */
    private List<Rule> rules() {
        List<Rule> rules = new ArrayList<>();
        if (input.isBronze()) {
            Field<String> errors = DSL.field(DSL.name("b", "_parse_errors"), String.class);
            rules.add(new Rule(errors.isNotNull(), DSL.inline(CONTRACT_VIOLATION),
                    DSL.concat(DSL.inline("the row breaks its contract: "), DSL.substring(errors, 1, REASON_CHARS))));
            SourceSpec source = input.source();
            if (source != null) {
                source.partitionColumnName().ifPresent(pc -> rules.add(new Rule(DSL.field(DSL.name("b", pc)).isNull(),
                        DSL.inline(PARTITION_VALUE_MISSING), DSL.inline("partition column " + pc
                                + " has no value, so the row belongs to no partition (it is quarantined by every partition of its file)"))));
                for (ContractRules.Rule r : ContractRules.of(source.contract())) {
                    rules.add(new Rule(r.when(), DSL.inline(r.id()), DSL.inline(r.reason())));
                }
            }
        }
        for (QuarantineRule r : table.quarantine()) {
            rules.add(new Rule(DSL.condition(r.when()), DSL.inline(r.id()), DSL.inline(r.reason())));
        }
        return rules;
    }

    /** 0 when no rule matches, else the 1-based index of the first matching rule. */
    private static Field<Integer> ruleIndex(List<Rule> rules) {
        if (rules.isEmpty()) {
            return DSL.inline(0);
        }
        CaseConditionStep<Integer> c = DSL.when(rules.get(0).when(), DSL.inline(1));
        for (int i = 1; i < rules.size(); i++) {
            c = c.when(rules.get(i).when(), DSL.inline(i + 1));
        }
        return c.otherwise(DSL.inline(0));
    }

    /** Inserts the input rows a rule matches, OPEN, with the first matching rule's id and reason. */
    private long quarantine(Condition inputRows, Partition out, RunId run) {
        CaseConditionStep<String> id = DSL.when(rules.get(0).when(), rules.get(0).id());
        CaseConditionStep<String> reason = DSL.when(rules.get(0).when(), rules.get(0).reason());
        for (int i = 1; i < rules.size(); i++) {
            id = id.when(rules.get(i).when(), rules.get(i).id());
            reason = reason.when(rules.get(i).when(), rules.get(i).reason());
        }
        List<JSONEntry<?>> entries = new ArrayList<>();
        for (ColumnSpec c : input.spec().columns()) {
            entries.add(DSL.jsonEntry(DSL.inline(c.name()), DSL.field(DSL.name("b", c.name()))));
        }
        if (input.isBronze()) {
            entries.add(DSL.jsonEntry(DSL.inline("_parse_errors"), DSL.field(DSL.name("b", "_parse_errors"))));
        }
        Field<String> json = DSL.jsonObject(entries).cast(SQLDataType.VARCHAR);
        List<Field<?>> columns = new ArrayList<>();
        for (String n : List.of("pipeline", "dataset", "partition_key", "run_id", "source", "source_pos",
                "rule_id", "reason", "record_json", "quarantined_at", "status")) {
            columns.add(DSL.field(DSL.name(n)));
        }
        List<Field<?>> values = List.of(DSL.val(spec.name()), DSL.val(table.table().qualifiedName()),
                DSL.val(out.key()), DSL.val(run.toString()),
                DSL.field(DSL.name("b", "_source")), DSL.field(DSL.name("b", "_source_pos")),
                id.otherwise((String) null), reason.otherwise((String) null), json,
                DSL.val(OffsetDateTime.now(ZoneOffset.UTC)), DSL.val(QuarantineStatus.OPEN.name()));
        return dsl.insertInto(QUARANTINE, columns)
                .select(DSL.select(values).from(input.table()).where(inputRows).and(ruleIndex.ne(0)))
                .execute();
    }

    /**
     * The partition's earlier OPEN entries after this run's rules: one whose row is quarantined
     * again (same source and position) is replaced by the new entry; one whose row now passes is
     * marked REPROCESSED (it is in this Silver version); one whose file is no longer in the input
     * (a newer load replaced it) is marked SUPERSEDED. Set-based: two statements.
     */
    private void resolvePending(Condition ofPartition, Condition inputRows) {
        Field<String> source = DSL.field(DSL.name("source"), String.class);
        Table<?> again = QUARANTINE.as("q2");
        dsl.deleteFrom(QUARANTINE).where(ofPartition, STATUS.eq(PENDING), DSL.exists(DSL.selectOne().from(again).where(
                DSL.field(DSL.name("q2", "status")).eq(OPEN),
                DSL.field(DSL.name("q2", "dataset")).eq(DSL.field(DSL.name(QuarantineTable.TABLE.getQualifiedName(), DSL.name("dataset")))),
                DSL.field(DSL.name("q2", "partition_key")).eq(DSL.field(DSL.name(QuarantineTable.TABLE.getQualifiedName(), DSL.name("partition_key")))),
                DSL.field(DSL.name("q2", "source")).eq(DSL.field(DSL.name(QuarantineTable.TABLE.getQualifiedName(), DSL.name("source")))),
                DSL.field(DSL.name("q2", "source_pos")).eq(DSL.field(DSL.name(QuarantineTable.TABLE.getQualifiedName(), DSL.name("source_pos"))))))).execute();
        Field<String> inputSource = DSL.field(DSL.name("b", "_source"), String.class);
        dsl.update(QUARANTINE).set(STATUS, DSL.when(source.in(DSL.selectDistinct(inputSource).from(input.table()).where(inputRows)),
                        DSL.inline(QuarantineStatus.REPROCESSED.name())).otherwise(DSL.inline(QuarantineStatus.SUPERSEDED.name())))
                .where(ofPartition, STATUS.eq(PENDING)).execute();
    }
}
