package dev.sluice.operations.erase;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.engine.BronzeRedaction;
import dev.sluice.engine.LayerEngine;
import dev.sluice.config.ColumnSpec;
import dev.sluice.config.ColumnType;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.SourceSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.BadInputException;
import dev.sluice.core.Layer;
import dev.sluice.warehouse.meta.ErasureLogTable;
import dev.sluice.warehouse.meta.QuarantineTable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

/**
 * {@code sluice erase}: redacts one data subject's raw value of one column wherever Sluice keeps
 * raw data, for an erasure request, in the caller's transaction:
 * <ul>
 *   <li>each Bronze table whose source contract has the column, through the pipeline's layer
 *       engine ({@link LayerEngine#redactBronze}): rows holding the value get
 *       {@code [erased #<id>]} in that column (a string column; another type gets NULL), and a
 *       {@code _parse_errors} entry of that column holding it is redacted too; on the lakehouse
 *       engine the data files holding it are rewritten and every earlier snapshot expired (that
 *       commit is Iceberg's, not the caller's transaction);</li>
 *   <li>{@code sluice.quarantine} of the pipeline: the column's value in {@code record_json}, the
 *       raw value inside its {@code _parse_errors}, and the value quoted in {@code reason};</li>
 *   <li>{@code sluice.erasure_log}: who, when, why, the column, the row counts and the affected
 *       partitions; never the value.</li>
 * </ul>
 * The marker carries the erasure id, so re-built Silver rows of two erased subjects stay distinct
 * (a name column may be part of a key). Silver and Gold hold only PII tokens, masks or nothing, and
 * are re-built from the redacted Bronze by re-running the affected partitions ({@code --rerun});
 * their kept earlier versions still hold the old tokens until pruned. Landed files are the
 * source's, not Sluice's, and are not touched. The value matches exactly (case-sensitive), after
 * parsing it as the column's type (a value that is not of the type is looked for in the raw text
 * of {@code _parse_errors} and the quarantine only); a row that could not be split into columns (a
 * line too long) has the value redacted wherever it appears in its raw text. Every row holding the
 * value is redacted: erase by an identifying column (a name, an id), not by a shared one (an age).
 * Thread-safe (stateless apart from the DSL).
 */
public final class Erasure {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Table<?> QUARANTINE = QuarantineTable.TABLE;
    private static final Table<?> LOG = ErasureLogTable.TABLE;
    private static final Field<Long> ERASURE_ID = DSL.field(DSL.name("erasure_id"), Long.class);

    private final DSLContext dsl;
    private final LayerEngine engine;

    /**
     * @param dsl the warehouse (the quarantine and the erasure log), in the caller's transaction
     * @param engine the pipeline's layer engine, which redacts Bronze
     */
    public Erasure(DSLContext dsl, LayerEngine engine) {
        this.dsl = dsl;
        this.engine = engine;
    }

    /**
     * What an erasure did.
     *
     * @param erasureId the {@code sluice.erasure_log} row
     * @param bronzeRows Bronze rows redacted (rows)
     * @param quarantineRows quarantine rows redacted (rows)
     * @param partitions the partitions whose Bronze or quarantine rows held the value, sorted
     */
    public record Result(long erasureId, long bronzeRows, long quarantineRows, List<String> partitions) {
    }

    /**
     * Erases {@code value} of {@code column}.
     *
     * @throws BadInputException when no source of the pipeline has the column, or the value is not
     *     of the column's type
     */
    public Result erase(PipelineSpec spec, String column, String value, String requestedBy, String reason) {
        List<TableSpec> bronze = new ArrayList<>();
        ColumnType type = null;
        for (TableSpec t : spec.tables(Layer.BRONZE)) {
            SourceSpec s = spec.source(t.source()).orElseThrow();
            for (ColumnSpec c : s.contract().columns()) {
                if (c.name().equals(column)) {
                    bronze.add(t);
                    type = c.type();
                }
            }
        }
        if (type == null) {
            throw new BadInputException("--column", -1, column, "no source contract of pipeline " + spec.name()
                    + " has a column " + column);
        }
        if (value.isEmpty()) {
            throw new BadInputException("--value", -1, column, "the value is empty; give the exact raw value to erase");
        }
        // a value that is not of the column's type can only live on in _parse_errors and the quarantine
        Object typed = type.parseLiteral(value).orElse(null);
        long id = dsl.insertInto(LOG)
                .set(DSL.field(DSL.name("pipeline")), spec.name())
                .set(DSL.field(DSL.name("column_name")), column)
                .set(DSL.field(DSL.name("requested_by")), requestedBy)
                .set(DSL.field(DSL.name("reason")), reason)
                .set(DSL.field(DSL.name("bronze_rows")), 0L)
                .set(DSL.field(DSL.name("quarantine_rows")), 0L)
                .set(DSL.field(DSL.name("partitions")), "")
                .set(DSL.field(DSL.name("erased_at")), OffsetDateTime.now(ZoneOffset.UTC))
                .returningResult(ERASURE_ID).fetchOne(ERASURE_ID);
        String marker = "[erased #" + id + "]";
        TreeSet<String> partitions = new TreeSet<>();
        long bronzeRows = 0;
        BronzeRedaction redaction = new BronzeRedaction(column, type, typed, value, marker,
                errors -> redactErrors(errors, column, value, marker));
        for (TableSpec t : bronze) {
            bronzeRows += engine.redactBronze(t, redaction, partitions);
        }
        long quarantineRows = eraseQuarantine(spec.name(), column, value, typed, marker, partitions);
        dsl.update(LOG).set(DSL.field(DSL.name("bronze_rows")), bronzeRows)
                .set(DSL.field(DSL.name("quarantine_rows")), quarantineRows)
                .set(DSL.field(DSL.name("partitions")), String.join(",", partitions))
                .where(ERASURE_ID.eq(id)).execute();
        return new Result(id, bronzeRows, quarantineRows, List.copyOf(partitions));
    }

    private long eraseQuarantine(String pipeline, String column, String raw, @Nullable Object typed, String marker,
            TreeSet<String> partitions) {
        Field<Long> qid = DSL.field(DSL.name("quarantine_id"), Long.class);
        Field<String> json = DSL.field(DSL.name("record_json"), String.class);
        Field<String> reason = DSL.field(DSL.name("reason"), String.class);
        Field<String> partition = DSL.field(DSL.name("partition_key"), String.class);
        long rows = 0;
        // only records whose text can hold the value are parsed: a number may be written another way
        // (-118.10 as -118.1) and a quote or backslash is escaped in JSON, so those are not filtered
        var where = DSL.field(DSL.name("pipeline")).eq(pipeline);
        if (!(typed instanceof Number) && raw.indexOf('"') < 0 && raw.indexOf('\\') < 0) {
            where = where.and(json.contains(raw));
        }
        for (var r : dsl.select(qid, json, reason, partition).from(QUARANTINE).where(where).fetch()) {
            String before = r.get(json);
            String after = redactRecord(before, column, raw, typed, marker);
            if (!after.equals(before)) {
                String why = r.get(reason).replace(raw, marker);
                dsl.update(QUARANTINE).set(json, after).set(reason, why).where(qid.eq(r.get(qid))).execute();
                partitions.add(r.get(partition));
                rows++;
            }
        }
        return rows;
    }

    /** A quarantined record with the column's value (and its raw text in {@code _parse_errors}) redacted. */
    private static String redactRecord(String recordJson, String column, String raw, @Nullable Object typed, String marker) {
        try {
            JsonNode node = JSON.readTree(recordJson);
            if (!(node instanceof ObjectNode record)) {
                return recordJson;
            }
            boolean changed = false;
            JsonNode v = record.get(column);
            boolean sameNumber = v != null && v.isNumber() && typed instanceof Number n && v.asDouble() == n.doubleValue();
            if (v != null && !v.isNull() && (v.asText().equals(raw) || sameNumber)) {
                record.put(column, marker);
                changed = true;
            }
            JsonNode errors = record.get("_parse_errors");
            if (errors != null && errors.isTextual()) {
                String redacted = redactErrors(errors.asText(), column, raw, marker);
                if (!redacted.equals(errors.asText())) {
                    record.put("_parse_errors", redacted);
                    changed = true;
                }
            }
            return changed ? JSON.writeValueAsString(record) : recordJson;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code _parse_errors} JSON with the column's entry redacted when its raw value is {@code raw}. */
    private static String redactErrors(String errorsJson, String column, String raw, String marker) {
        try {
            JsonNode node = JSON.readTree(errorsJson);
            if (!(node instanceof ArrayNode list)) {
                return errorsJson;
            }
            boolean changed = false;
            for (JsonNode e : list) {
                if (!(e instanceof ObjectNode o)) {
                    continue;
                }
                boolean wholeRow = o.path("column").isNull() || o.path("column").isMissingNode();
                if (column.equals(o.path("column").asText()) && raw.equals(o.path("value").asText())) {
                    o.put("value", marker);
                    o.put("reason", o.path("reason").asText().replace(raw, marker));
                    changed = true;
                } else if (wholeRow && o.path("value").asText().contains(raw)) {
                    // the row could not be split into columns (e.g. a line too long): redact the value wherever it appears
                    o.put("value", o.path("value").asText().replace(raw, marker));
                    o.put("reason", o.path("reason").asText().replace(raw, marker));
                    changed = true;
                }
            }
            return changed ? JSON.writeValueAsString(list) : errorsJson;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
