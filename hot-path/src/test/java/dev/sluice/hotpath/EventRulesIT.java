package dev.sluice.hotpath;

import static org.assertj.core.api.Assertions.assertThat;

import dev.sluice.config.ContractSpec;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.QuarantineRule;
import dev.sluice.warehouse.Warehouse;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hot path's quarantine rules judge a batch by one statement over the batch's column arrays
 * ({@link RulesStatement}) on H2 and on PostgreSQL: events with every contract type, NULLs, text
 * with tabs, quotes, backslashes, characters outside the BMP, timestamps to the microsecond; a rule
 * per type and one reading a reference table. Each event's first matching rule equals the rules
 * evaluated here in Java (SQL's NULL: a comparison with NULL matches nothing), on both kinds, for a
 * batch of 60 events and for the same events judged twice in one batch of 120 (the statement is
 * constant: the second run of it on a connection is the prepared one).
 */
class EventRulesIT {

    @TempDir
    Path home;

    private static final String[] TEXTS = {"plain", "tab\there", "line\nbreak\r\nCRLF", "back\\slash \\N \\.", "\"quoted\", comma",
        "", "unicode é ü 漢字 😀", "'single'", "{a,b}", "NULL"};

    private record Rule(String id, String when, Predicate<Map<String, Object>> java) {
    }

    private static final List<Rule> RULES = List.of( // in an order where each is the first match of some event
            new Rule("big_float", "f > 0.5 OR d > 0", v -> v.get("f") != null && (Float) v.get("f") > 0.5f
                    || v.get("d") != null && (Double) v.get("d") > 0),
            new Rule("small_amount", "amount < -12345.650", v -> v.get("amount") != null
                    && ((BigDecimal) v.get("amount")).compareTo(new BigDecimal("-12345.650")) < 0),
            new Rule("early_ts", "ts < TIMESTAMP '1999-12-31 23:59:59.999950'", v -> v.get("ts") != null
                    && ((LocalDateTime) v.get("ts")).isBefore(LocalDateTime.parse("1999-12-31T23:59:59.999950"))),
            new Rule("late_feb_true", "b AND on_day > DATE '2001-02-20'", v -> Boolean.TRUE.equals(v.get("b"))
                    && v.get("on_day") != null && ((LocalDate) v.get("on_day")).isAfter(LocalDate.parse("2001-02-20"))),
            new Rule("kanji", "POSITION('漢' IN note) > 0", v -> v.get("note") != null && ((String) v.get("note")).contains("漢")),
            new Rule("literal_null_text", "note = 'NULL' OR note = '{a,b}'", v -> "NULL".equals(v.get("note")) || "{a,b}".equals(v.get("note"))),
            new Rule("empty_note", "note = ''", v -> "".equals(v.get("note"))),
            new Rule("big_l", "l > 400000000000000", v -> v.get("l") != null && (Long) v.get("l") > 400_000_000_000_000L),
            new Rule("unknown_code", "NOT EXISTS (SELECT 1 FROM ref.codes r WHERE r.ref_code = code)",
                    v -> !List.of("A", "B\tb").contains(v.get("code"))),
            new Rule("low_i", "i < -500000", v -> v.get("i") != null && (Integer) v.get("i") < -500_000));

    @Test
    void theArrayStatementJudgesEveryTypeAsTheRulesSayOnBothKinds() throws Exception {
        EmbeddedPostgres postgres = EmbeddedPostgres.builder().start();
        try {
            for (String kind : List.of("h2", "postgres")) {
                String url = TestPipelines.url(kind, home, postgres);
                PipelineSpec spec = TestPipelines.write(home, "all", TestPipelines.ALL_TYPES, url, TestPipelines.user(kind), null);
                ContractSpec contract = spec.source("all").orElseThrow().contract();
                List<EventDecoder.Event> events = events(contract);
                // H2's arrays carry what PostgreSQL's text cannot: a NUL character, a year past 9999
                List<EventDecoder.Event> uncarried = List.of(
                        event(new EventDecoder(contract, "at"), 60, "{\"at\": \"2001-01-01T00:00:00\", \"code\": \"A\", \"note\": \"漢\\u0000x\"}"),
                        event(new EventDecoder(contract, "at"), 61, "{\"at\": \"2001-01-01T00:00:00\", \"code\": \"A\", \"note\": \"\\u0000\"}"),
                        event(new EventDecoder(contract, "at"), 62, "{\"at\": \"2001-01-01T00:00:00\", \"code\": \"A\", \"ts\": \"+10000-01-01T00:00:00\"}"));
                if (kind.equals("h2")) {
                    events.addAll(uncarried);
                }
                EventRules rules = new EventRules(contract, RULES.stream().map(r -> new QuarantineRule(r.id(), r.when(), r.id() + " holds")).toList(),
                        "silver.all");
                try (Warehouse w = Warehouse.open(spec.warehouse(), 2)) {
                    w.dsl().execute("CREATE SCHEMA ref");
                    w.dsl().execute("CREATE TABLE ref.codes (ref_code VARCHAR(10))");
                    w.dsl().execute("INSERT INTO ref.codes VALUES ('A'), ('B\tb')");
                    for (EventDecoder.Event u : uncarried) {
                        assertThat(RulesStatement.carries(w.dsl(), List.of(u))).as(kind + ": the array statement takes %s", u.values())
                                .isEqualTo(kind.equals("h2"));
                    }
                    Map<Integer, String> expected = expected(events);
                    assertThat(expected.values()).as("the batch exercises every rule").containsAll(RULES.stream().map(Rule::id).toList());
                    assertThat(judged(rules.judge(w.dsl(), events))).as(kind).isEqualTo(expected);
                    List<EventDecoder.Event> twice = new ArrayList<>(events);
                    twice.addAll(events);
                    assertThat(judged(rules.judge(w.dsl(), twice))).as(kind + ", the batch twice").isEqualTo(expected(twice));
                }
            }
        } finally {
            postgres.close();
        }
    }

    private static Map<Integer, String> judged(Map<Integer, EventDecoder.Violation> v) {
        Map<Integer, String> out = new TreeMap<>();
        v.forEach((i, violation) -> out.put(i, violation.ruleId()));
        return out;
    }

    private static Map<Integer, String> expected(List<EventDecoder.Event> events) {
        Map<Integer, String> out = new TreeMap<>();
        for (int i = 0; i < events.size(); i++) {
            Map<String, Object> v = events.get(i).values();
            int index = i;
            RULES.stream().filter(r -> r.java().test(v)).findFirst().ifPresent(r -> out.put(index, r.id()));
        }
        return out;
    }

    private static List<EventDecoder.Event> events(ContractSpec contract) throws Exception {
        EventDecoder decoder = new EventDecoder(contract, "at");
        List<String> json = TestPipelines.allTypesJson(60, TEXTS, n -> (n == 58 ? "" : "-") + "1234.56789012345" + n);
        List<EventDecoder.Event> events = new ArrayList<>();
        for (int n = 0; n < json.size(); n++) {
            events.add(event(decoder, n, json.get(n)));
        }
        return events;
    }

    private static EventDecoder.Event event(EventDecoder decoder, int n, String json) {
        EventDecoder.Decoded d = decoder.decode(("id-" + n).getBytes(StandardCharsets.UTF_8), json.getBytes(StandardCharsets.UTF_8));
        assertThat(d.violation()).as("event %d: %s", n, json).isNull();
        return d.event();
    }
}
