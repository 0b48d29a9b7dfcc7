package dev.sluice.engine.warehouse;

import dev.sluice.engine.QueryResult;
import java.sql.Array;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A query's rows read over JDBC as {@code sluice sql} prints them: the column labels, the first rows
 * (each as long as the labels, nulls allowed) and how many rows the query returned in all. Stateless.
 */
final class JdbcRows {

    private JdbcRows() {
    }

    /**
     * Runs {@code query} on {@code c} and keeps its first {@code limit} rows, counting the rest. Values
     * as JDBC 4.2 gives them exactly ({@code getObject(i, Class)}): {@code TIME} as {@link LocalTime}
     * (java.sql.Time held milliseconds and printed none: {@code 10:11:12.123456} showed as
     * {@code 10:11:12}), {@code TIMESTAMP} as {@link LocalDateTime}, {@code DATE} as {@link LocalDate},
     * with time zone as {@link OffsetTime}/{@link OffsetDateTime}; an {@code ARRAY} as a list of its
     * elements; binary values as {@code byte[]}; anything else as {@code getObject(i)} gives it.
     *
     * @throws SQLException when the query fails
     */
    static QueryResult read(Connection c, String query, int limit) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(query)) {
            ResultSetMetaData md = rs.getMetaData();
            List<String> columns = new ArrayList<>();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                columns.add(md.getColumnLabel(i));
            }
            List<List<Object>> rows = new ArrayList<>();
            long total = 0;
            while (rs.next()) {
                if (total++ < limit) {
                    List<Object> row = new ArrayList<>(columns.size());
                    for (int i = 1; i <= columns.size(); i++) {
                        row.add(value(rs, md.getColumnType(i), md.getColumnTypeName(i), i));
                    }
                    rows.add(row);
                }
            }
            return new QueryResult(List.copyOf(columns), rows, total);
        }
    }

    private static boolean zoned(String typeName) {
        String t = typeName.toLowerCase(java.util.Locale.ROOT);
        return t.contains("timestamptz") || t.contains("with time zone");
    }

    private static Object value(ResultSet rs, int type, String typeName, int i) throws SQLException {
        Object v = switch (type) {
            case Types.TIME -> rs.getObject(i, LocalTime.class);
            case Types.TIME_WITH_TIMEZONE -> rs.getObject(i, OffsetTime.class);
            // a PostgreSQL timestamptz may be reported as TIMESTAMP: its type name tells
            case Types.TIMESTAMP -> zoned(typeName) ? rs.getObject(i, OffsetDateTime.class) : rs.getObject(i, LocalDateTime.class);
            case Types.TIMESTAMP_WITH_TIMEZONE -> rs.getObject(i, OffsetDateTime.class);
            case Types.DATE -> rs.getObject(i, LocalDate.class);
            case Types.ARRAY -> elements(rs.getArray(i));
            case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY, Types.BLOB -> rs.getBytes(i);
            default -> rs.getObject(i);
        };
        return rs.wasNull() ? null : v;
    }

    private static Object elements(Array array) throws SQLException {
        if (array == null) {
            return null;
        }
        Object elements = array.getArray();
        return elements instanceof Object[] a ? Arrays.asList(a) : elements;
    }
}
