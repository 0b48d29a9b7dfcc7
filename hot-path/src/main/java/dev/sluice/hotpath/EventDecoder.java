package dev.sluice.hotpath;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import dev.sluice.config.ColumnSpec;
import dev.sluice.config.ColumnType;
import dev.sluice.config.ContractSpec;
import dev.sluice.config.ExactNumbers;
import dev.sluice.core.BoundedText;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Decodes a record's value (a JSON object) against the event contract: every contract column, by
 * name, converted to its type; a missing or null value where the contract says not nullable, a
 * value of the wrong type, or a value outside the column's allowed values is a violation. Nothing
 * is changed on the way: a number is read exactly, a {@code decimal(p,s)} value that does not fit
 * and a float/double value the type would round ({@link ExactNumbers#binaryLoss}, unless the
 * column is {@code lossy}) are violations, and so is a text longer than {@value #MAX_TEXT_CHARS}
 * characters (the bound lives in this rule, not in the sink's column type). The record key is the event id (required).
 * Immutable and thread-safe.
 */
public final class EventDecoder {

    /** Characters of a text value an event may hold; a longer one is refused (dead-letter topic). */
    static final int MAX_TEXT_CHARS = 4000;

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .configure(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES, false);

    private final ContractSpec contract;
    private final String eventTime;

    /**
     * @param eventTime the timestamp column that is each event's event time (read as UTC)
     */
    public EventDecoder(ContractSpec contract, String eventTime) {
        this.contract = contract;
        this.eventTime = eventTime;
    }

    /** A valid event: its id, its values in contract order, its event time, its content hash (SHA-256 of the values). */
    public record Event(String id, Map<String, @Nullable Object> values, Instant eventTime, String contentHash) {
    }

    /**
     * Why a record is not an event: a rule id ({@code malformed_json}, {@code missing_event_id},
     * {@code event_id_too_long}, {@code contract_violation}) and the reason.
     */
    public record Violation(String ruleId, String reason) {
    }

    /** Either an event or why not. */
    public record Decoded(@Nullable Event event, @Nullable Violation violation) {
    }

    /** Decodes one record. Never throws on bad input. */
    public Decoded decode(byte @Nullable [] key, byte @Nullable [] value) {
        if (key == null || key.length == 0) {
            return bad("missing_event_id", "the record has no key: the key is the event's id");
        }
        String id = new String(key, StandardCharsets.UTF_8);
        if (id.length() > SinkTable.EVENT_ID_CHARS) {
            return bad("event_id_too_long", "the record's key is " + id.length() + " characters: the key is the event's id, and the sink keeps"
                    + " ids of at most " + SinkTable.EVENT_ID_CHARS);
        }
        JsonNode node;
        try {
            node = value == null ? null : JSON.readTree(value);
        } catch (IOException e) {
            return bad("malformed_json", "the value is not JSON: " + firstLine(e.getMessage()));
        }
        if (node == null || !node.isObject()) {
            return bad("malformed_json", "the value is not a JSON object");
        }
        Map<String, Object> values = new LinkedHashMap<>();
        List<String> errors = new ArrayList<>();
        for (ColumnSpec c : contract.columns()) {
            JsonNode v = node.get(c.name());
            if (v == null || v.isNull()) {
                if (!c.nullable()) {
                    errors.add(c.name() + ": required, missing");
                }
                values.put(c.name(), null);
                continue;
            }
            try {
                Object converted = convert(c, v);
                String outside = outside(c, converted);
                if (outside != null) {
                    errors.add(c.name() + ": " + abbreviate(v.toString()) + " " + outside);
                }
                values.put(c.name(), converted);
            } catch (ArithmeticException e) {
                errors.add(c.name() + ": " + abbreviate(v.toString()) + " does not fit " + c.typeId() + ": " + e.getMessage());
            } catch (IllegalArgumentException | DateTimeParseException e) {
                errors.add(c.name() + ": " + abbreviate(v.toString()) + (e instanceof Refused ? " " + e.getMessage()
                        : " is not a " + c.type().id()));
            }
        }
        if (!errors.isEmpty()) {
            return bad("contract_violation", "the event breaks contract " + contract.label() + ": " + String.join("; ", errors));
        }
        LocalDateTime at = (LocalDateTime) values.get(eventTime);
        return new Decoded(new Event(id, values, at.toInstant(ZoneOffset.UTC), hash(values)), null);
    }

    private static Object convert(ColumnSpec c, JsonNode v) {
        return switch (c.type()) {
            case STRING -> {
                if (!v.isTextual()) {
                    throw new IllegalArgumentException();
                }
                if (v.asText().length() > MAX_TEXT_CHARS) {
                    throw new Refused("holds " + v.asText().length() + " characters, more than the " + MAX_TEXT_CHARS
                            + " the sink keeps");
                }
                yield v.asText();
            }
            case INT -> {
                if (!v.isIntegralNumber() || !v.canConvertToInt()) {
                    throw new IllegalArgumentException();
                }
                yield v.intValue();
            }
            case LONG -> {
                if (!v.isIntegralNumber() || !v.canConvertToLong()) {
                    throw new IllegalArgumentException();
                }
                yield v.longValue();
            }
            case FLOAT, DOUBLE -> {
                if (!v.isNumber()) {
                    throw new IllegalArgumentException();
                }
                String loss = c.lossy() ? null : ExactNumbers.binaryLoss(v.decimalValue(), c.type());
                if (loss != null) {
                    throw new Refused("is not exactly " + c.type().withArticle() + " (" + loss + "): declare it decimal(p,s)"
                            + " to keep it, or lossy: true to accept the rounding");
                }
                Object stored = c.type() == ColumnType.FLOAT ? (Object) v.floatValue() : (Object) v.doubleValue();
                if (Double.isInfinite(((Number) stored).doubleValue())) {
                    throw new Refused("is out of " + c.type().withArticle() + "'s range");
                }
                yield stored;
            }
            case DECIMAL -> {
                if (!v.isNumber()) {
                    throw new IllegalArgumentException();
                }
                yield c.decimal().fit(v.decimalValue());
            }
            case BOOLEAN -> {
                if (!v.isBoolean()) {
                    throw new IllegalArgumentException();
                }
                yield v.booleanValue();
            }
            case DATE -> LocalDate.parse(text(v));
            case TIMESTAMP -> LocalDateTime.parse(text(v).replace(' ', 'T').replaceFirst("Z$", ""));
        };
    }

    /** Why {@code v} is outside the column's allowed values (the contract rules Silver applies), or null. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static @Nullable String outside(ColumnSpec c, Object v) {
        var a = c.allowed();
        if (!a.values().isEmpty() && a.values().stream().noneMatch(x -> literal(c, x).equals(v))) {
            return "is not one of " + a.values();
        }
        if (v instanceof Comparable cmp) {
            if (a.min() != null && cmp.compareTo(literal(c, a.min())) < 0) {
                return "is below the minimum " + a.min();
            }
            if (a.max() != null && cmp.compareTo(literal(c, a.max())) > 0) {
                return "is above the maximum " + a.max();
            }
        }
        return null;
    }

    private static Object literal(ColumnSpec c, String text) {
        return switch (c.type()) {
            case STRING -> text;
            case INT -> Integer.parseInt(text);
            case LONG -> Long.parseLong(text);
            case FLOAT -> Float.parseFloat(text);
            case DOUBLE -> Double.parseDouble(text);
            case BOOLEAN -> Boolean.parseBoolean(text);
            case DATE -> LocalDate.parse(text);
            case TIMESTAMP -> LocalDateTime.parse(text.replace(' ', 'T'));
            case DECIMAL -> c.decimal().fit(new BigDecimal(text)); // same scale as a decoded value: equals compares
        };
    }

    /** A value refused with a reason of its own (the value is quoted before it). */
    private static final class Refused extends IllegalArgumentException {
        Refused(String reason) {
            super(reason);
        }
    }

    private static String text(JsonNode v) {
        if (!v.isTextual()) {
            throw new IllegalArgumentException();
        }
        return v.asText();
    }

    /** SHA-256 over the values in contract order: equal for exact duplicates, whatever their ids. */
    private static String hash(Map<String, Object> values) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (Object v : values.values()) {
                sha.update(String.valueOf(v).getBytes(StandardCharsets.UTF_8));
                sha.update((byte) 0);
            }
            return HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Decoded bad(String rule, String reason) {
        return new Decoded(null, new Violation(rule, reason));
    }

    private static String firstLine(@Nullable String s) {
        return s == null ? "" : abbreviate(s.lines().findFirst().orElse(""));
    }

    private static String abbreviate(String s) {
        return s.length() <= 120 ? s : BoundedText.prefix(s, 117) + "...";
    }
}
