package dev.sluice.hotpath;

import dev.sluice.warehouse.meta.QuarantineStatus;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.config.HotPathSpec;
import dev.sluice.core.RunId;
import dev.sluice.warehouse.meta.QuarantineTable;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jooq.impl.SQLDataType;
import org.jspecify.annotations.Nullable;

/**
 * The hot path's entries in {@code sluice.quarantine}: each poison record (a decoding or rule
 * violation, or a too-late event) once by its source position ({@code source},
 * {@code source_pos}), however often its batch is redelivered. An entry: {@code pipeline},
 * {@code dataset} (the sink's qualified name), {@code partition_key} {@code none}, {@code run_id}
 * (the consumer's run), {@code source} ({@code kafka:<topic>/<partition>}), {@code source_pos} (the
 * offset), {@code rule_id}, {@code reason} (at most 1,000 characters), {@code record_json} (the raw
 * key and value, at most 100,000 characters), {@code status} {@code OPEN}, {@code quarantined_at}.
 * Stateless besides the names; thread-safe.
 */
final class HotQuarantine {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Table<?> QUARANTINE = QuarantineTable.TABLE;

    private final String pipeline;
    private final HotPathSpec hot;

    HotQuarantine(String pipeline, HotPathSpec hot) {
        this.pipeline = pipeline;
        this.hot = hot;
    }

    /**
     * Quarantines each of {@code poison} not quarantined before (nor earlier in the list), in the
     * caller's transaction {@code tx}: one query for the positions already there, then one JDBC
     * batch. Nothing for an empty list.
     *
     * @param consumerRun the consumer's run id, recorded with each entry
     * @param now the entries' {@code quarantined_at}
     */
    void add(DSLContext tx, List<HotSink.Poison> poison, RunId consumerRun, OffsetDateTime now) {
        if (poison.isEmpty()) {
            return;
        }
        // the positions already quarantined (a redelivered batch), in one query; then one JDBC batch
        Field<String> source = DSL.field(DSL.name("source"), String.class);
        Field<Long> position = DSL.field(DSL.name("source_pos"), Long.class);
        Set<String> known = new HashSet<>();
        tx.select(source, position).from(QUARANTINE)
                .where(source.in(poison.stream().map(p -> p.at().source()).distinct().toList()),
                        position.in(poison.stream().map(p -> p.at().offset()).distinct().toList()))
                .forEach(r -> known.add(r.value1() + "@" + r.value2()));
        List<Field<?>> fields = new ArrayList<>();
        for (String n : List.of("pipeline", "dataset", "partition_key", "run_id", "source", "rule_id", "reason", "record_json", "status")) {
            fields.add(DSL.field(DSL.name(n), SQLDataType.VARCHAR));
        }
        fields.add(DSL.field(DSL.name("source_pos"), SQLDataType.BIGINT));
        fields.add(DSL.field(DSL.name("quarantined_at"), SQLDataType.TIMESTAMPWITHTIMEZONE));
        List<Field<?>> placeholders = new ArrayList<>();
        fields.forEach(f -> placeholders.add(DSL.val(null, f.getDataType())));
        var batch = tx.batch(tx.insertInto(QUARANTINE, fields).values(placeholders));
        int rows = 0;
        for (HotSink.Poison p : poison) {
            if (!known.add(p.at().source() + "@" + p.at().offset())) {
                continue; // quarantined before, or twice in this batch
            }
            batch = batch.bind(pipeline, hot.sink().qualifiedName(), "none", consumerRun.toString(), p.at().source(), p.violation().ruleId(),
                    truncate(p.violation().reason(), 1000), raw(p), QuarantineStatus.OPEN.name(), p.at().offset(), now);
            rows++;
        }
        if (rows > 0) {
            batch.execute();
        }
    }

    /** The raw record as JSON: the key and value as UTF-8 text when they are, else Base64. */
    private static String raw(HotSink.Poison p) {
        ObjectNode n = JSON.createObjectNode();
        put(n, "key", p.key());
        put(n, "value", p.value());
        return truncate(n.toString(), 100_000);
    }

    private static void put(ObjectNode n, String name, byte @Nullable [] bytes) {
        if (bytes == null) {
            n.putNull(name);
            return;
        }
        var decoder = StandardCharsets.UTF_8.newDecoder();
        try {
            n.put(name, decoder.decode(ByteBuffer.wrap(bytes)).toString());
        } catch (CharacterCodingException e) {
            n.put(name + "_base64", Base64.getEncoder().encodeToString(bytes));
        }
    }

    private static String truncate(String s, int max) {
        return s.length() <= max ? s : s.substring(0, max - 3) + "...";
    }
}
