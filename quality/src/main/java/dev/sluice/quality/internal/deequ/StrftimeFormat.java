package dev.sluice.quality.internal.deequ;

import dev.sluice.config.StrftimeFormats;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.sql.api.java.UDF2;

/**
 * {@code expect_column_values_to_match_strftime_format}: whether a text value parses, completely
 * and strictly (no lenient "fixing" of Feb 30), with a C {@code strftime} format (the directives of
 * Python's {@code datetime.strptime}, https://docs.python.org/3/library/datetime.html#format-codes,
 * which GE uses). Registered as the Spark SQL function {@value #UDF}. Thread-safe.
 */
final class StrftimeFormat {

    static final String UDF = "sluice_matches_strftime";
    private static final Map<String, DateTimeFormatter> CACHE = new ConcurrentHashMap<>();

    private StrftimeFormat() {
    }

    static UDF2<String, String, Boolean> udf() {
        return (value, format) -> value == null ? null : matches(value, format);
    }

    static boolean matches(String value, String format) {
        try {
            CACHE.computeIfAbsent(format, StrftimeFormats::formatter).parse(value);
            return true;
        } catch (DateTimeParseException | IllegalArgumentException e) {
            return false;
        }
    }

}
