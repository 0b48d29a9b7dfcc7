package dev.sluice.hotpath;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.exception.DataAccessException;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

/**
 * The sink's bulk path on PostgreSQL: a batch's new events in one statement,
 * {@code INSERT INTO sink (…) SELECT * FROM unnest(CAST(? AS type[]), …) ON CONFLICT (_event_id)
 * DO NOTHING RETURNING _event_id}, each column bound as one array in its text form
 * ({@link PostgresArrays}; multi-argument {@code unnest}, PostgreSQL docs §9.19), so the SQL is the
 * same for every batch of a sink (prepared once per connection) and says which ids were written (an
 * id already in the sink is not). Rows go in ascending id order. A text array is cast to unbounded
 * {@code varchar[]}, so that a value longer than its column is refused by the insert, as on the
 * row path, not cut by the cast. Runs on the caller's transaction's connection, so the events
 * commit or roll back with the rest of the batch.
 *
 * <p>Until 2026-12-04 the batch went by {@code COPY … FROM STDIN} (CSV) into a temporary staging
 * table and then {@code INSERT … SELECT} from it: the staging table's rows were written and read
 * once more per event. Measured in {@code --only hotsink} ({@code pg_stat_statements}, 500,000
 * events): COPY and insert 4.66 s of the server's statement time, this one statement 3.84 s.
 * {@link #encodable} says when a batch has a value the text form cannot carry as the row path binds
 * it (a NUL character, a year outside 1..9999): the caller then takes the row path, whose error (if
 * any) is the database's. Thread-safe.
 */
final class PostgresSinkInsert {

    private final SinkTable sink;
    /** The statement, rendered at the first batch (the same for every batch); racing first batches render it alike. */
    private volatile @Nullable String sql;

    PostgresSinkInsert(SinkTable sink) {
        this.sink = sink;
    }

    /** Whether every value of {@code rows} (as {@link SinkTable#row} gives them) has a text form that reads back exactly. */
    static boolean encodable(List<List<Object>> rows) {
        return PostgresArrays.carriesAll(rows);
    }

    /**
     * Writes {@code rows} (not empty, in {@link SinkTable#fields} order, at most one row per id)
     * and returns the ids actually written (an id already in the sink is not).
     *
     * @throws DataAccessException when the statement fails; the caller rolls back
     */
    Set<String> insert(DSLContext tx, List<List<Object>> unsorted) {
        List<Field<?>> fields = sink.fields();
        String statement = sql(tx, fields);
        int id = sink.eventIdIndex();
        // by id: two batches holding some of the same ids (a zombie member during a rebalance) then
        // insert them in one order and wait for each other at most one way, never in a cycle
        List<List<Object>> rows = unsorted.stream().sorted(Comparator.comparing(r -> (String) r.get(id))).toList();
        return tx.connectionResult(c -> {
            try (PreparedStatement ps = c.prepareStatement(statement)) {
                for (int col = 0; col < fields.size(); col++) {
                    List<@Nullable Object> values = new ArrayList<>(rows.size());
                    for (List<Object> row : rows) {
                        values.add(row.get(col));
                    }
                    ps.setArray(col + 1, PostgresArrays.of(c, fields.get(col).getDataType(), values));
                }
                Set<String> ids = new HashSet<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        ids.add(rs.getString(1));
                    }
                }
                return ids;
            } catch (SQLException e) {
                throw new DataAccessException("the sink's insert into " + tx.render(sink.table()) + ": " + e.getMessage(), e);
            }
        });
    }

    private String sql(DSLContext tx, List<Field<?>> fields) {
        String s = sql;
        if (s == null) {
            StringBuilder names = new StringBuilder();
            StringBuilder arrays = new StringBuilder();
            for (Field<?> f : fields) {
                names.append(names.isEmpty() ? "" : ", ").append(tx.render(DSL.name(f.getName())));
                // text unbounded: a cast to varchar(n) would cut a longer value silently, where the insert refuses it
                arrays.append(arrays.isEmpty() ? "" : ", ").append("CAST(? AS ")
                        .append(f.getDataType().isString() ? "varchar" : f.getDataType().getCastTypeName(tx.configuration())).append("[])");
            }
            s = "INSERT INTO " + tx.render(sink.table()) + " (" + names + ") SELECT * FROM unnest(" + arrays + ") ON CONFLICT ("
                    + tx.render(DSL.name("_event_id")) + ") DO NOTHING RETURNING " + tx.render(DSL.name("_event_id"));
            sql = s;
        }
        return s;
    }
}
