package dev.sluice.config;

import dev.sluice.core.DatasetRef;
import dev.sluice.core.Layer;
import dev.sluice.core.PartitionKind;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Reads {@code hot_path:}, the pipeline's Kafka hot path ({@link HotPathSpec}):
 * <pre>
 * hot_path:
 *   topic: flights.events            # required: the topic of the events
 *   dead_letter_topic: flights.dlq   # default &lt;topic&gt;.dlq
 *   bootstrap_servers: kafka:9092    # default localhost:9092
 *   group_id: sluice-flights         # default sluice-&lt;pipeline&gt;
 *   source: flights                  # required: a source of this spec; the events follow its contract
 *   event_time: date                 # required: a timestamp column of that contract
 *   sink: bronze.flight_events       # required: a table in schema bronze, keeping every valid event
 *   max_poll_records: 500            # default 500; at least 1
 *   allowed_lateness: PT10M          # default PT10M; a positive ISO-8601 duration
 *   rules_from: silver.flights       # optional: a Silver table whose input is the Bronze table of source;
 *                                    #   its quarantine rules judge every event
 *   windows: [...]                   # optional: the live aggregates ({@link WindowReader})
 *   reconcile: {...}                 # optional: live windows against the batch mart ({@link ReconcileReader})
 * </pre>
 * Problems are added to the cursor's list with their key paths; nothing is thrown for bad content.
 * A source that is declared but not valid (its contract missing, say) is reported once, at the
 * source: the event time is then not judged, nor {@code rules_from}. Stateless.
 */
final class HotPathReader {

    private static final String DEFAULT_BOOTSTRAP_SERVERS = "localhost:9092";
    private static final int DEFAULT_MAX_POLL_RECORDS = 500;
    private static final Duration DEFAULT_ALLOWED_LATENESS = Duration.ofMinutes(10);

    private HotPathReader() {
    }

    /**
     * The hot path, or null when the spec has none.
     *
     * @param c the spec's root
     * @param pipeline the pipeline's name, for the default group id
     * @param sources the valid sources, by name
     * @param declaredSources every source name in the file, valid or not
     * @param tables the valid layer tables, for {@code rules_from} and {@code reconcile.against}
     * @param partitionKind the pipeline's partitioning, which a reconciled window must divide
     */
    static @Nullable HotPathSpec read(YamlCursor c, String pipeline, Map<String, SourceSpec> sources, Set<String> declaredSources,
            List<TableSpec> tables, PartitionKind partitionKind) {
        return c.map("hot_path", false).map(h -> {
            h.allowOnly(Set.of("topic", "dead_letter_topic", "bootstrap_servers", "group_id", "source", "event_time", "sink",
                    "max_poll_records", "allowed_lateness", "windows", "rules_from", "reconcile"));
            String topic = h.text("topic", true).orElse("events");
            String source = h.text("source", true).orElse("");
            String eventTime = h.text("event_time", true).orElse("");
            SourceSpec s = sources.get(source);
            // a declared source that is not valid (its contract missing, say) is reported once, at the source
            boolean sourceInvalid = s == null && declaredSources.contains(source);
            if (s == null && !source.isEmpty() && !sourceInvalid) {
                h.problem("source", source, "no such source: the events follow a source's contract; declared: "
                        + String.join(", ", declaredSources.stream().sorted().toList()));
            } else if (s != null) {
                var column = s.contract().columns().stream().filter(col -> col.name().equals(eventTime)).findFirst();
                if (column.isEmpty()) {
                    h.problem("event_time", eventTime, "not a column of contract " + s.contract().label());
                } else if (column.get().type() != ColumnType.TIMESTAMP) {
                    h.problem("event_time", eventTime, "the event time is a timestamp; " + eventTime + " is " + column.get().type().id());
                }
            }
            DatasetRef sink = h.text("sink", true).map(t -> {
                try {
                    DatasetRef ref = DatasetRef.parse(t);
                    SqlIdentifiers.reservedName(ref).ifPresent(reason -> h.problem("sink", t, reason));
                    return ref;
                } catch (RuntimeException e) {
                    h.problem("sink", t, "a table, schema.table");
                    return null;
                }
            }).orElse(null);
            if (sink != null && !sink.schema().equals("bronze")) {
                h.problem("sink", sink.qualifiedName(), "every valid event is kept raw: the sink lives in schema bronze");
            }
            List<WindowSpec> windows = WindowReader.windows(h, s == null ? Map.of() : columnTypes(s.contract()));
            TableSpec rulesFrom = h.text("rules_from", false).filter(t -> !sourceInvalid).map(t -> rulesFrom(h, t, source, tables)).orElse(null);
            return new HotPathSpec(topic, h.text("dead_letter_topic", false).orElse(topic + ".dlq"),
                    h.text("bootstrap_servers", false).orElse(DEFAULT_BOOTSTRAP_SERVERS), h.text("group_id", false).orElse("sluice-" + pipeline),
                    source, eventTime, sink == null ? new DatasetRef("bronze", "events") : sink,
                    h.integer("max_poll_records", DEFAULT_MAX_POLL_RECORDS, 1).orElse(DEFAULT_MAX_POLL_RECORDS),
                    h.duration("allowed_lateness", DEFAULT_ALLOWED_LATENESS), windows,
                    rulesFrom == null ? null : rulesFrom.table(), rulesFrom == null ? List.of() : rulesFrom.quarantine(),
                    h.map("reconcile", false).map(r -> ReconcileReader.read(r, windows, tables, partitionKind)).orElse(null));
        }).orElse(null);
    }

    /** {@code hot_path.rules_from}: a Silver table refining the Bronze table of the events' source. */
    private static @Nullable TableSpec rulesFrom(YamlCursor h, String text, String source, List<TableSpec> tables) {
        TableSpec t = tables.stream().filter(x -> x.table().qualifiedName().equals(text)).findFirst().orElse(null);
        if (t == null || t.layer() != Layer.SILVER) {
            h.problem("rules_from", text, "not a Silver table of this pipeline");
            return null;
        }
        TableSpec input = t.inputTable().flatMap(in -> tables.stream().filter(x -> x.table().equals(in)).findFirst()).orElse(null);
        if (input == null || input.layer() != Layer.BRONZE || !source.equals(input.source())) {
            h.problem("rules_from", text, "its rules are written over the Bronze table of source " + source
                    + ", so they can judge its events; " + text + " reads " + t.inputTable().map(DatasetRef::qualifiedName).orElse("nothing"));
            return null;
        }
        return t;
    }

    private static Map<String, ColumnType> columnTypes(ContractSpec contract) {
        Map<String, ColumnType> out = new LinkedHashMap<>();
        contract.columns().forEach(col -> out.put(col.name(), col.type()));
        return out;
    }
}
