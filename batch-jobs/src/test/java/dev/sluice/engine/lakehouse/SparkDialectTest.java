package dev.sluice.engine.lakehouse;


import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SparkDialectTest {

    @Test
    void doublePrecisionBecomesDoubleInAnyCase() {
        assertThat(SparkDialect.toSpark("SELECT CAST(SUM(x) AS DOUBLE PRECISION) / COUNT(*) FROM t"))
                .isEqualTo("SELECT CAST(SUM(x) AS DOUBLE) / COUNT(*) FROM t");
        assertThat(SparkDialect.toSpark("cast(a as double precision), CAST(b AS Double\tPrecision)"))
                .isEqualTo("cast(a as double), CAST(b AS Double)");
    }

    @Test
    void aLineBreakBetweenTheWordsIsKeptSoLinesStayTheSame() {
        assertThat(SparkDialect.toSpark("SELECT CAST(x AS DOUBLE\n   PRECISION) AS y,\n  z\nFROM t"))
                .isEqualTo("SELECT CAST(x AS DOUBLE\n) AS y,\n  z\nFROM t");
        assertThat(SparkDialect.toSpark("SELECT\n  CAST(a AS DOUBLE PRECISION),\n  CAST(b AS DOUBLE PRECISION)\nFROM t"))
                .isEqualTo("SELECT\n  CAST(a AS DOUBLE),\n  CAST(b AS DOUBLE)\nFROM t");
    }

    @Test
    void literalsQuotedIdentifiersAndCommentsAreLeftAlone() {
        String sql = "SELECT 'DOUBLE PRECISION' AS a, 'it''s DOUBLE PRECISION' AS b, \"DOUBLE PRECISION\" AS c,\n"
                + "  `DOUBLE PRECISION` AS d -- DOUBLE PRECISION\n"
                + "  /* DOUBLE\n PRECISION */ , CAST(e AS DOUBLE PRECISION) AS e\nFROM t";
        assertThat(SparkDialect.toSpark(sql)).isEqualTo("SELECT 'DOUBLE PRECISION' AS a, 'it''s DOUBLE PRECISION' AS b, \"DOUBLE PRECISION\" AS c,\n"
                + "  `DOUBLE PRECISION` AS d -- DOUBLE PRECISION\n"
                + "  /* DOUBLE\n PRECISION */ , CAST(e AS DOUBLE) AS e\nFROM t");
    }

    @Test
    void onlyTheTwoWholeWordsAreRewritten() {
        String sql = "SELECT double_precision, x_double precision, CAST(a AS DOUBLE) AS double, doubled precisions, "
                + "DOUBLE PRECISION_X, my_DOUBLE PRECISION FROM t";
        assertThat(SparkDialect.toSpark(sql)).isEqualTo(sql);
    }

    @Test
    void anUnterminatedLiteralOrCommentRunsToTheEnd() {
        assertThat(SparkDialect.toSpark("SELECT 'DOUBLE PRECISION")).isEqualTo("SELECT 'DOUBLE PRECISION");
        assertThat(SparkDialect.toSpark("SELECT 1 /* DOUBLE PRECISION")).isEqualTo("SELECT 1 /* DOUBLE PRECISION");
        assertThat(SparkDialect.toSpark("")).isEmpty();
    }
}
