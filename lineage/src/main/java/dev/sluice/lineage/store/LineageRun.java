package dev.sluice.lineage.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BinaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * A run of another tool, as its OpenLineage run events tell it (folded by {@link #fold}).
 *
 * @param runId the run's UUID
 * @param namespace the job's namespace (of the latest event)
 * @param job the job's name (of the latest event)
 * @param state the type of its terminal event (COMPLETE, FAIL or ABORT) when it has one, else of
 *     its latest event (START, RUNNING, OTHER)
 * @param parentRunId the {@code parent} facet's run id, or null
 * @param parentJob the {@code parent} facet's job as {@code namespace/name}, or null
 * @param nominalStartTime the {@code nominalTime} facet's start, or null
 * @param nominalEndTime the {@code nominalTime} facet's end, or null
 * @param errorMessage the {@code errorMessage} facet's message, or null
 * @param startedAt the time of its START event, else of its earliest event
 * @param endedAt the time of its terminal event, or null while it has none
 * @param events how many distinct events it has
 * @param facets every run facet of its events, by key; a later event's facet replaces an earlier one
 * @param inputs the datasets its events read, by the name Sluice knows them by, sorted
 * @param outputs the datasets its events wrote (or meant to), sorted
 */
public record LineageRun(String runId, String namespace, String job, String state, @Nullable String parentRunId,
        @Nullable String parentJob, @Nullable OffsetDateTime nominalStartTime, @Nullable OffsetDateTime nominalEndTime,
        @Nullable String errorMessage, OffsetDateTime startedAt, @Nullable OffsetDateTime endedAt, int events, JsonNode facets,
        List<String> inputs, List<String> outputs) {

    private static final Set<String> TERMINAL = Set.of("COMPLETE", "FAIL", "ABORT");

    /**
     * Folds a run's events, in any order of arrival: they are ordered by {@code eventTime}, a START
     * before other events of the same instant and a terminal event after them.
     *
     * @param events the run's validated OpenLineage run events (at least one)
     * @param knownAs (namespace, name) of a dataset → the name Sluice knows it by
     * @throws IllegalArgumentException when {@code events} is empty
     */
    public static LineageRun fold(String runId, List<JsonNode> events, BinaryOperator<String> knownAs) {
        if (events.isEmpty()) {
            throw new IllegalArgumentException("run " + runId + " has no events to fold");
        }
        List<JsonNode> ordered = new ArrayList<>(events);
        ordered.sort(Comparator.comparing((JsonNode e) -> time(e).toInstant()).thenComparingInt(LineageRun::rank));
        ObjectNode facets = JsonNodeFactory.instance.objectNode();
        Set<String> inputs = new TreeSet<>();
        Set<String> outputs = new TreeSet<>();
        JsonNode last = ordered.get(ordered.size() - 1);
        JsonNode terminal = null;
        JsonNode start = null;
        for (JsonNode e : ordered) {
            for (Iterator<Map.Entry<String, JsonNode>> it = e.path("run").path("facets").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                facets.set(f.getKey(), f.getValue());
            }
            e.path("inputs").forEach(d -> inputs.add(knownAs.apply(d.path("namespace").asText(), d.path("name").asText())));
            e.path("outputs").forEach(d -> outputs.add(knownAs.apply(d.path("namespace").asText(), d.path("name").asText())));
            if (TERMINAL.contains(type(e))) {
                terminal = e;
            }
            if (start == null && "START".equals(type(e))) {
                start = e;
            }
        }
        JsonNode parent = facets.path("parent");
        JsonNode nominal = facets.path("nominalTime");
        return new LineageRun(runId, last.path("job").path("namespace").asText(), last.path("job").path("name").asText(),
                type(terminal != null ? terminal : last), text(parent.path("run").path("runId")),
                parent.path("job").isObject() ? parent.path("job").path("namespace").asText() + "/" + parent.path("job").path("name").asText()
                        : null,
                instant(nominal.path("nominalStartTime")), instant(nominal.path("nominalEndTime")), text(facets.path("errorMessage").path("message")),
                time(start != null ? start : ordered.get(0)), terminal == null ? null : time(terminal), ordered.size(), facets,
                List.copyOf(inputs), List.copyOf(outputs));
    }

    private static String type(JsonNode e) {
        return e.path("eventType").asText("OTHER");
    }

    private static int rank(JsonNode e) {
        String type = type(e);
        return "START".equals(type) ? 0 : TERMINAL.contains(type) ? 2 : 1;
    }

    private static OffsetDateTime time(JsonNode e) {
        return OffsetDateTime.parse(e.path("eventTime").asText());
    }

    private static @Nullable String text(JsonNode n) {
        return n.isTextual() ? n.asText() : null;
    }

    private static @Nullable OffsetDateTime instant(JsonNode n) {
        return n.isTextual() ? OffsetDateTime.parse(n.asText()) : null;
    }
}
