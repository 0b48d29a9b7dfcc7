package dev.sluice.hotpath;

import dev.sluice.warehouse.meta.QuarantineStatus;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.config.ContractSpec;
import dev.sluice.config.HotPathSpec;
import dev.sluice.config.PipelineSpec;
import dev.sluice.core.SluiceException;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.warehouse.meta.QuarantineTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Table;
import org.jooq.impl.DSL;

/**
 * Reprocessing of a hot path's quarantined events ({@code sluice quarantine reprocess}): each OPEN
 * entry of the sink's dataset is decoded again under the current contract; one that now passes is
 * re-injected ({@link HotSink#reinject}: written to the sink, or for a too-late event counted in its
 * windows from now on) and marked REPROCESSED, in one transaction; one that still fails stays OPEN.
 * Idempotent: a re-injected event is applied once however often it is reprocessed. A too-late event
 * passes when it is reprocessed: reprocessing it is the decision to count it.
 */
public final class LiveQuarantine {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Table<?> Q = QuarantineTable.TABLE;
    private static final Field<Long> ID = DSL.field(DSL.name("quarantine_id"), Long.class);
    private static final Field<String> STATUS = DSL.field(DSL.name("status"), String.class);

    private LiveQuarantine() {
    }

    /**
     * What a reprocess did.
     *
     * @param reinjected entries that now pass, re-injected and marked REPROCESSED
     * @param counted of those, the events the windows count now and did not before
     * @param stillFailing entries that still fail, left OPEN: where and why (the first ten)
     * @param stillFailingCount how many still fail
     */
    public record Result(int reinjected, int counted, List<String> stillFailing, int stillFailingCount) {
    }

    /** Reprocesses the OPEN quarantined events of {@code spec}'s hot path. */
    public static Result reprocess(PipelineSpec spec, Warehouse warehouse) {
        HotPathSpec hot = spec.hotPath();
        if (hot == null) {
            throw new SluiceException("pipeline " + spec.name() + " declares no hot path");
        }
        ContractSpec contract = spec.source(hot.source()).orElseThrow().contract();
        EventDecoder decoder = new EventDecoder(contract, hot.eventTime());
        HotSink sink = new HotSink(spec.name(), hot, contract);
        sink.create(warehouse.dsl());
        var entries = warehouse.dsl().select(ID, DSL.field(DSL.name("source"), String.class), DSL.field(DSL.name("source_pos"), Long.class),
                        DSL.field(DSL.name("rule_id"), String.class), DSL.field(DSL.name("record_json"), String.class))
                .from(Q).where(DSL.field(DSL.name("pipeline")).eq(spec.name()), DSL.field(DSL.name("dataset")).eq(hot.sink().qualifiedName()),
                        STATUS.eq(QuarantineStatus.OPEN.name()))
                .orderBy(ID).fetch();
        EventRules rules = new EventRules(contract, hot.rules(), hot.rulesFrom() == null ? "" : hot.rulesFrom().qualifiedName());
        List<HotSink.Consumed> decodedOk = new ArrayList<>();
        List<Record> decodedEntries = new ArrayList<>();
        List<HotSink.Consumed> pass = new ArrayList<>();
        List<Long> passIds = new ArrayList<>();
        List<String> failing = new ArrayList<>();
        int failingCount = 0;
        for (Record r : entries) {
            String source = r.get(1, String.class);
            HotSink.Position at = position(source, r.get(2, Long.class));
            JsonNode raw;
            try {
                raw = JSON.readTree(r.get(4, String.class));
            } catch (IOException e) {
                failingCount++;
                if (failing.size() < 10) {
                    failing.add("#" + r.get(0) + " " + source + "@" + r.get(2) + ": the stored record is not JSON (" + e.getMessage() + ")");
                }
                continue;
            }
            byte[] key = raw.hasNonNull("key") ? raw.get("key").asText().getBytes(StandardCharsets.UTF_8) : null;
            byte[] value = raw.hasNonNull("value") ? raw.get("value").asText().getBytes(StandardCharsets.UTF_8) : null;
            EventDecoder.Decoded d = decoder.decode(key, value);
            if (d.event() != null) {
                decodedOk.add(new HotSink.Consumed(d.event(), at));
                decodedEntries.add(r);
            } else {
                failingCount++;
                if (failing.size() < 10) {
                    failing.add("#" + r.get(0) + " " + source + "@" + r.get(2) + ": " + d.violation().reason());
                }
            }
        }
        // then the Silver rules (rules_from), as the consumer applies them
        Map<Integer, EventDecoder.Violation> ruled = rules.judge(warehouse.dsl(), decodedOk.stream().map(HotSink.Consumed::event).toList());
        for (int i = 0; i < decodedOk.size(); i++) {
            Record r = decodedEntries.get(i);
            EventDecoder.Violation v = ruled.get(i);
            if (v == null) {
                pass.add(decodedOk.get(i));
                passIds.add(r.get(0, Long.class));
            } else {
                failingCount++;
                if (failing.size() < 10) {
                    failing.add("#" + r.get(0) + " " + r.get(1) + "@" + r.get(2) + ": " + v.reason());
                }
            }
        }
        int[] counted = new int[1];
        warehouse.dsl().transaction(c -> {
            counted[0] = sink.reinject(c.dsl(), pass);
            for (int i = 0; i < passIds.size(); i += 500) {
                c.dsl().update(Q).set(STATUS, QuarantineStatus.REPROCESSED.name()).where(ID.in(passIds.subList(i, Math.min(passIds.size(), i + 500))),
                        STATUS.eq(QuarantineStatus.OPEN.name())).execute();
            }
        });
        return new Result(pass.size(), counted[0], failing, failingCount);
    }

    private static HotSink.Position position(String source, long offset) {
        // kafka:<topic>/<partition>
        String s = source.startsWith("kafka:") ? source.substring(6) : source;
        int slash = s.lastIndexOf('/');
        try {
            return new HotSink.Position(s.substring(0, slash), Integer.parseInt(s.substring(slash + 1)), offset);
        } catch (RuntimeException e) {
            return new HotSink.Position(s, -1, offset);
        }
    }
}
