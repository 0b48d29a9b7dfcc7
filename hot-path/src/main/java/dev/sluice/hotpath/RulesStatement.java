package dev.sluice.hotpath;

import dev.sluice.config.ColumnSpec;
import dev.sluice.config.QuarantineRule;
import dev.sluice.warehouse.ColumnTypes;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jooq.DSLContext;
import org.jooq.SQLDialect;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

/**
 * The quarantine rules of a hot path as one constant statement over a batch bound as column
 * arrays: {@code SELECT e._event_index, CASE WHEN rule0 THEN 0 … ELSE -1 END FROM UNNEST(?, ?, …)
 * AS e(_event_index, columns…) WHERE rule0 OR …}, one array parameter per column whatever the
 * batch's size. The SQL is rendered once per dialect, so the driver prepares it once per
 * connection (PostgreSQL's JDBC driver keeps a named server-side statement after 5 executions of
 * the same SQL, {@code prepareThreshold}), where a {@code VALUES} table of the batch's literals was
 * rendered, parsed and planned per batch (22 % of the hot path's samples, profile of 2026-12-04).
 *
 * <p>PostgreSQL: multi-argument {@code unnest} in {@code FROM} (PostgreSQL docs §9.19, "Array
 * Functions"); each array sent as {@link PostgresArrays} sends it. H2:
 * {@code UNNEST(array, …)}, each array made from the decoded Java values and cast to the column's
 * type ({@code CAST(? AS type ARRAY)}). {@link #carries} says when a batch holds a value the text
 * form cannot carry (a NUL character, a year outside 1..9999); the caller then takes the
 * {@code VALUES} path. Thread-safe (the rendered SQL is cached per dialect).
 */
final class RulesStatement {

    private final List<ColumnSpec> columns;
    private final List<QuarantineRule> rules;
    private final Map<SQLDialect, String> sql = new ConcurrentHashMap<>();

    RulesStatement(List<ColumnSpec> columns, List<QuarantineRule> rules) {
        this.columns = List.copyOf(columns);
        this.rules = List.copyOf(rules);
    }

    /** Whether the statement runs on {@code dsl}'s dialect (PostgreSQL or H2). */
    static boolean supports(DSLContext dsl) {
        return dsl.family() == SQLDialect.POSTGRES || dsl.family() == SQLDialect.H2;
    }

    /**
     * Whether the statement can carry every value of {@code events} on {@code dsl}'s dialect: on
     * PostgreSQL, whether each value has a text form it reads back as the same value
     * ({@link PostgresArrays#carries}); on H2 always (its arrays are made of the Java values).
     */
    static boolean carries(DSLContext dsl, List<EventDecoder.Event> events) {
        return dsl.family() != SQLDialect.POSTGRES || PostgresArrays.carriesAll(events.stream().map(e -> e.values().values()).toList());
    }

    /** The statement's SQL on {@code dsl}'s dialect: the same string for every batch, rendered once per dialect. */
    String sql(DSLContext dsl) {
        return sql.computeIfAbsent(dsl.family(), f -> render(dsl));
    }

    private String render(DSLContext dsl) {
        boolean pg = dsl.family() == SQLDialect.POSTGRES;
        StringBuilder arrays = new StringBuilder(pg ? "CAST(? AS integer[])" : "CAST(? AS INTEGER ARRAY)");
        StringBuilder names = new StringBuilder(dsl.render(DSL.name("_event_index")));
        for (ColumnSpec c : columns) {
            String type = ColumnTypes.of(c).getCastTypeName(dsl.configuration());
            arrays.append(", CAST(? AS ").append(type).append(pg ? "[])" : " ARRAY)");
            names.append(", ").append(dsl.render(DSL.name(c.name())));
        }
        StringBuilder which = new StringBuilder("CASE");
        StringBuilder any = new StringBuilder();
        for (int r = 0; r < rules.size(); r++) {
            which.append(" WHEN (").append(rules.get(r).when()).append(") THEN ").append(r);
            any.append(r == 0 ? "(" : " OR (").append(rules.get(r).when()).append(')');
        }
        which.append(" ELSE -1 END");
        return "SELECT e." + dsl.render(DSL.name("_event_index")) + ", " + which + " FROM " + (pg ? "unnest(" : "UNNEST(")
                + arrays + ") AS e(" + names + ") WHERE " + any;
    }

    /**
     * Runs the statement over {@code events[lo, hi)} and puts each matched event's index (into
     * {@code events}) with its first matching rule's index into {@code out}.
     *
     * @throws SQLException when the database refuses the statement or a value
     */
    void run(Connection c, String sql, boolean pg, List<EventDecoder.Event> events, int lo, int hi, Map<Integer, Integer> out)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            Integer[] index = new Integer[hi - lo];
            for (int i = lo; i < hi; i++) {
                index[i - lo] = i;
            }
            ps.setArray(1, c.createArrayOf(pg ? "int4" : "INTEGER", index));
            for (int col = 0; col < columns.size(); col++) {
                ColumnSpec spec = columns.get(col);
                List<@Nullable Object> values = new ArrayList<>(hi - lo);
                for (int i = lo; i < hi; i++) {
                    values.add(events.get(i).values().get(spec.name()));
                }
                ps.setArray(col + 2, pg ? PostgresArrays.of(c, ColumnTypes.of(spec), values) : c.createArrayOf("VARCHAR", values.toArray()));
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getInt(1), rs.getInt(2));
                }
            }
        }
    }
}
