package dev.sluice.batch.bronze;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import dev.sluice.config.ColumnSpec;
import dev.sluice.config.ColumnType;
import dev.sluice.core.BadInputException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The Java value of a JSON node for a contract column. Numbers and strings convert where the
 * contract's type allows; a {@code timestamp} may also be an integral number of milliseconds since
 * the epoch, read in UTC (the USGS feed's {@code time}). Numbers are read exactly ({@link #MAPPER}
 * keeps every JSON number as written), so a {@code decimal(p,s)} gets its exact value and a
 * float/double column refuses what it would round (see {@link TextValues#lossReason}). A JSON
 * string is read as text ({@link TextValues}). Stateless.
 */
final class JsonValues {

    /**
     * A JSON reader for records: duplicate keys and trailing tokens refused; floating-point
     * numbers as BigDecimal with their trailing zeros (their scale says how they were written).
     * Thread-safe.
     */
    static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .configure(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES, false)
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    private JsonValues() {
    }

    /**
     * @return the value, or null for a missing or null node
     * @throws BadInputException (row-level) when the node is not of the column's type, or a number
     *     does not fit it exactly
     */
    static @Nullable Object of(JsonNode node, ColumnSpec c, String file, long row) {
        if (node.isMissingNode() || node.isNull()) {
            return null;
        }
        if (node.isContainerNode()) {
            return switch (c.type()) {
                case STRING -> node.toString();
                default -> throw new BadInputException(file, row, c.name(), "a JSON " + node.getNodeType().name().toLowerCase(Locale.ROOT)
                        + " is not " + c.type().withArticle());
            };
        }
        switch (c.type()) {
            case STRING:
                if (node.isTextual()) {
                    if (node.asText().indexOf('\0') >= 0) {
                        throw new BadInputException(file, row, c.name(), "a text value holding a NUL character");
                    }
                    return c.trim() ? node.asText().strip() : node.asText(); // JSON "" is an empty string, not NULL
                }
                return node.asText();
            case LONG:
            case INT:
                if (node.isIntegralNumber() && node.canConvertToLong()) {
                    long v = node.longValue();
                    if (c.type() == ColumnType.INT && (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE)) {
                        throw new BadInputException(file, row, c.name(), v + " does not fit an int");
                    }
                    return c.type() == ColumnType.INT ? (Object) (int) v : (Object) v;
                }
                break;
            case DOUBLE:
            case FLOAT:
                if (node.isNumber()) {
                    return floating(node, c, file, row);
                }
                break;
            case DECIMAL:
                if (node.isNumber()) {
                    try {
                        return c.decimal().fit(node.decimalValue());
                    } catch (ArithmeticException e) {
                        throw new BadInputException(file, row, c.name(), "JSON " + TextValues.abbreviate(node.toString())
                                + " does not fit " + c.typeId() + ": " + e.getMessage());
                    }
                }
                break;
            case BOOLEAN:
                if (node.isBoolean()) {
                    return node.booleanValue();
                }
                break;
            case TIMESTAMP:
                if (node.isIntegralNumber()) {
                    return LocalDateTime.ofInstant(Instant.ofEpochMilli(node.longValue()), ZoneOffset.UTC);
                }
                break;
            default:
                break;
        }
        if (node.isTextual()) {
            return TextValues.parse(node.asText(), c, file, row);
        }
        throw new BadInputException(file, row, c.name(), "JSON " + TextValues.abbreviate(node.toString()) + " is not "
                + c.type().withArticle());
    }

    /** A JSON number as a finite Double or Float, refused when the column would round it or it overflows/underflows. */
    private static Object floating(JsonNode node, ColumnSpec c, String file, long row) {
        BigDecimal exact = node.decimalValue();
        Object stored = c.type() == ColumnType.FLOAT ? (Object) exact.floatValue() : (Object) exact.doubleValue();
        double d = ((Number) stored).doubleValue();
        if (Double.isInfinite(d) || d == 0 && exact.signum() != 0) {
            throw new BadInputException(file, row, c.name(), "JSON " + TextValues.abbreviate(node.toString()) + " is not "
                    + c.type().withArticle() + " (out of range)");
        }
        String loss = TextValues.lossReason(exact, stored, c);
        if (loss != null) {
            throw new BadInputException(file, row, c.name(), "JSON " + TextValues.abbreviate(node.toString()) + " " + loss);
        }
        return stored;
    }
}
