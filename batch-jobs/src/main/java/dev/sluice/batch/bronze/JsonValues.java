package dev.sluice.batch.bronze;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.config.ColumnSpec;
import dev.sluice.core.BadInputException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import org.jspecify.annotations.Nullable;

/**
 * The Java value of a JSON node for a contract column. Numbers and strings convert where the
 * contract's type allows; a {@code timestamp} may also be an integral number of milliseconds since
 * the epoch, read in UTC (the USGS feed's {@code time}). Stateless.
 */
final class JsonValues {

    private JsonValues() {
    }

    /**
     * @return the value, or null for a missing or null node
     * @throws BadInputException (row-level) when the node is not of the column's type
     */
    static @Nullable Object of(JsonNode node, ColumnSpec c, String file, long row) {
        if (node.isMissingNode() || node.isNull()) {
            return null;
        }
        if (node.isContainerNode()) {
            return switch (c.type()) {
                case STRING -> node.toString();
                default -> throw new BadInputException(file, row, c.name(), "a JSON " + node.getNodeType().name().toLowerCase()
                        + " is not " + c.type().withArticle());
            };
        }
        switch (c.type()) {
            case STRING:
                try {
                    return TextValues.noNul(node.asText());
                } catch (NumberFormatException e) {
                    throw new BadInputException(file, row, c.name(), "a text value holding a NUL character");
                }
            case LONG:
            case INT:
                if (node.isIntegralNumber() && node.canConvertToLong()) {
                    long v = node.longValue();
                    if (c.type() == dev.sluice.config.ColumnType.INT && (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE)) {
                        throw new BadInputException(file, row, c.name(), v + " does not fit an int");
                    }
                    return c.type() == dev.sluice.config.ColumnType.INT ? (Object) (int) v : (Object) v;
                }
                break;
            case DOUBLE:
                if (node.isNumber() && Double.isFinite(node.doubleValue())) {
                    return node.doubleValue();
                }
                break;
            case FLOAT:
                if (node.isNumber()) {
                    return node.floatValue();
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
        throw new BadInputException(file, row, c.name(), "JSON " + node + " is not " + c.type().withArticle());
    }
}
