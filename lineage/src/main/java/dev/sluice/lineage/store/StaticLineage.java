package dev.sluice.lineage.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.sluice.core.SluiceException;
import java.io.IOException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Table;
import org.jooq.exception.IntegrityConstraintViolationException;
import org.jooq.impl.DSL;

/**
 * Static lineage: OpenLineage 2.0's {@code DatasetEvent} and {@code JobEvent}, which declare a
 * dataset or a job with its facets and no run. {@code sluice.lineage_static_event} keeps each event
 * as sent (once); {@code sluice.lineage_static_ref} what it tells of (its subject, a JobEvent's
 * inputs and outputs); {@code sluice.lineage_static} each dataset and job folded from every event
 * that tells of it (facets by key, the later event's replacing the earlier; as sent);
 * {@code sluice.lineage_static_io} a job's inputs and outputs as its latest JobEvent declares them.
 * Writes run in the caller's transaction, which holds {@link #WRITERS}. Thread-safe.
 */
public final class StaticLineage {

    /** {@code sluice.lineage_static_event}: every static event, as sent. */
    public static final Table<?> EVENTS = DSL.table(DSL.name("sluice", "lineage_static_event"));
    /** {@code sluice.lineage_static_ref}: (event, kind, namespace, name, role) of what each event tells of. */
    public static final Table<?> REFS = DSL.table(DSL.name("sluice", "lineage_static_ref"));
    /** {@code sluice.lineage_static}: each declared dataset (kind DATASET) and job (JOB), folded. */
    public static final Table<?> DECLARED = DSL.table(DSL.name("sluice", "lineage_static"));
    /** {@code sluice.lineage_static_io}: (job_namespace, job, role, dataset) of each job's latest JobEvent. */
    public static final Table<?> IO = DSL.table(DSL.name("sluice", "lineage_static_io"));
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The monitor of this JVM's writers, held across each writer's whole transaction (a fold then sees every committed event). */
    static final Object WRITERS = new Object();
    private static final Field<Long> EVENT_ID = DSL.field(DSL.name("event_id"), Long.class);
    private static final Field<OffsetDateTime> EVENT_TIME = DSL.field(DSL.name("event_time"), OffsetDateTime.class);
    private static final Field<String> EVENT_JSON = DSL.field(DSL.name("event_json"), String.class);
    private static final Field<String> SHA = DSL.field(DSL.name("body_sha256"), String.class);
    private static final Field<String> KIND = DSL.field(DSL.name("kind"), String.class);
    private static final Field<String> NAMESPACE = DSL.field(DSL.name("namespace"), String.class);
    private static final Field<String> NAME = DSL.field(DSL.name("name"), String.class);
    private static final Field<String> ROLE = DSL.field(DSL.name("role"), String.class);
    private static final Field<String> KNOWN_AS = DSL.field(DSL.name("known_as"), String.class);
    private static final Field<String> FACETS = DSL.field(DSL.name("facets_json"), String.class);
    private static final Field<String> JOB_NAMESPACE = DSL.field(DSL.name("job_namespace"), String.class);
    private static final Field<String> JOB = DSL.field(DSL.name("job"), String.class);
    private static final Field<String> DATASET = DSL.field(DSL.name("dataset"), String.class);

    /** A dataset as static lineage declares it: its facets (by key, as sent) and the jobs declaring it as an input or output. */
    public record Declared(JsonNode facets, List<DeclaringJob> jobs) {
        public Declared {
            jobs = List.copyOf(jobs);
        }
    }

    /** A job whose latest JobEvent names a dataset: {@code namespace/name}, its role (input or output) and its job facets. */
    public record DeclaringJob(String job, String role, JsonNode facets) {
    }

    private final DSLContext dsl;
    private final DatasetAliases aliases;

    StaticLineage(DSLContext dsl, DatasetAliases aliases) {
        this.dsl = dsl;
        this.aliases = aliases;
    }

    /**
     * Stores a validated DatasetEvent ({@code dataset}) or JobEvent ({@code job}, {@code inputs},
     * {@code outputs}) in the caller's transaction and folds again what it tells of.
     *
     * @return false when the same event (the same canonical JSON) is stored already, and nothing was written
     */
    boolean store(JsonNode e, String json) {
        boolean dataset = e.has("dataset");
        JsonNode subject = dataset ? e.path("dataset") : e.path("job");
        String kind = dataset ? "DATASET" : "JOB";
        String sha = CanonicalJson.sha256(e);
        if (dsl.fetchExists(DSL.selectOne().from(EVENTS).where(SHA.eq(sha)))) {
            return false;
        }
        try {
            // a savepoint: another process storing the same event at once fails only its insert
            dsl.transaction(nested -> nested.dsl().insertInto(EVENTS).set(KIND, kind).set(NAMESPACE, subject.path("namespace").asText())
                    .set(NAME, subject.path("name").asText()).set(EVENT_TIME, OffsetDateTime.parse(e.path("eventTime").asText()))
                    .set(EVENT_JSON, json).set(SHA, sha).execute());
        } catch (IntegrityConstraintViolationException raced) {
            return false;
        }
        long id = dsl.select(EVENT_ID).from(EVENTS).where(SHA.eq(sha)).fetchOne(EVENT_ID);
        ref(id, kind, subject, "self");
        fold(kind, subject.path("namespace").asText(), subject.path("name").asText());
        for (String role : List.of("input", "output")) {
            for (JsonNode d : e.path(role + "s")) {
                ref(id, "DATASET", d, role);
                fold("DATASET", d.path("namespace").asText(), d.path("name").asText());
            }
        }
        if (!dataset) {
            declareIo(subject.path("namespace").asText(), subject.path("name").asText());
        }
        return true;
    }

    private void ref(long id, String kind, JsonNode subject, String role) {
        dsl.insertInto(REFS).set(EVENT_ID, id).set(KIND, kind).set(NAMESPACE, subject.path("namespace").asText())
                .set(NAME, subject.path("name").asText()).set(ROLE, role).execute();
    }

    /** Folds the facets of every event that tells of ({@code kind}, {@code namespace}, {@code name}) in event-time order. */
    private void fold(String kind, String namespace, String name) {
        Table<?> e = EVENTS.as("e");
        Table<?> r = REFS.as("r");
        Field<String> role = DSL.field(DSL.name("r", "role"), String.class);
        Field<String> body = DSL.field(DSL.name("e", "event_json"), String.class);
        Field<OffsetDateTime> time = DSL.field(DSL.name("e", "event_time"), OffsetDateTime.class);
        var rows = dsl.select(role, body, time).from(r).join(e).on(DSL.field(DSL.name("r", "event_id")).eq(DSL.field(DSL.name("e", "event_id"))))
                .where(DSL.field(DSL.name("r", "kind")).eq(kind), DSL.field(DSL.name("r", "namespace")).eq(namespace),
                        DSL.field(DSL.name("r", "name")).eq(name))
                .orderBy(time, DSL.field(DSL.name("e", "event_id"))).fetch();
        ObjectNode facets = JSON.createObjectNode();
        for (var row : rows) {
            JsonNode event = parse(row.value2());
            JsonNode of = "self".equals(row.value1()) ? event.path("DATASET".equals(kind) ? "dataset" : "job").path("facets")
                    : named(event.path(row.value1() + "s"), namespace, name).path("facets");
            of.fields().forEachRemaining(f -> facets.set(f.getKey(), f.getValue()));
        }
        dsl.deleteFrom(DECLARED).where(KIND.eq(kind), NAMESPACE.eq(namespace), NAME.eq(name)).execute();
        dsl.insertInto(DECLARED).set(KIND, kind).set(NAMESPACE, namespace).set(NAME, name)
                .set(KNOWN_AS, "DATASET".equals(kind) ? aliases.knownAs(namespace, name) : name)
                .set(FACETS, facets.toString()).set(DSL.field(DSL.name("events"), Integer.class), rows.size())
                .set(DSL.field(DSL.name("first_seen"), OffsetDateTime.class), rows.get(0).value3())
                .set(DSL.field(DSL.name("last_seen"), OffsetDateTime.class), rows.get(rows.size() - 1).value3()).execute();
    }

    /** The dataset of {@code datasets} named ({@code namespace}, {@code name}), or a missing node. */
    private static JsonNode named(JsonNode datasets, String namespace, String name) {
        for (JsonNode d : datasets) {
            if (d.path("namespace").asText().equals(namespace) && d.path("name").asText().equals(name)) {
                return d;
            }
        }
        return JSON.missingNode();
    }

    /** Replaces the job's inputs and outputs by those of its latest JobEvent. */
    private void declareIo(String namespace, String job) {
        String latest = dsl.select(EVENT_JSON).from(EVENTS).where(KIND.eq("JOB"), NAMESPACE.eq(namespace), NAME.eq(job))
                .orderBy(EVENT_TIME.desc(), EVENT_ID.desc()).limit(1).fetchOne(EVENT_JSON);
        JsonNode event = parse(latest);
        dsl.deleteFrom(IO).where(JOB_NAMESPACE.eq(namespace), JOB.eq(job)).execute();
        for (String role : List.of("input", "output")) {
            Set<String> names = new LinkedHashSet<>();
            event.path(role + "s").forEach(d -> names.add(aliases.knownAs(d.path("namespace").asText(), d.path("name").asText())));
            for (String dataset : names) {
                dsl.insertInto(IO).set(JOB_NAMESPACE, namespace).set(JOB, job).set(ROLE, role).set(DATASET, dataset).execute();
            }
        }
    }

    /** True when static lineage declares a dataset Sluice knows by {@code dataset}. */
    boolean knows(String dataset) {
        return dsl.fetchExists(DSL.selectOne().from(DECLARED).where(KNOWN_AS.eq(dataset), KIND.eq("DATASET")))
                || dsl.fetchExists(DSL.selectOne().from(IO).where(DATASET.eq(dataset)));
    }

    /**
     * The dataset Sluice knows by {@code dataset} as static lineage declares it (its facets: those
     * of every namespace naming it so, merged in the order last seen), or empty when no DatasetEvent
     * or JobEvent named it.
     */
    public Optional<Declared> dataset(String dataset) {
        ObjectNode facets = JSON.createObjectNode();
        dsl.select(FACETS).from(DECLARED).where(KNOWN_AS.eq(dataset), KIND.eq("DATASET")).orderBy(DSL.field(DSL.name("last_seen")))
                .fetch(FACETS).forEach(f -> parse(f).fields().forEachRemaining(e -> facets.set(e.getKey(), e.getValue())));
        Table<?> io = IO.as("io");
        Table<?> s = DECLARED.as("s");
        Field<String> ns = DSL.field(DSL.name("io", "job_namespace"), String.class);
        Field<String> job = DSL.field(DSL.name("io", "job"), String.class);
        Field<String> role = DSL.field(DSL.name("io", "role"), String.class);
        Field<String> jobFacets = DSL.field(DSL.name("s", "facets_json"), String.class);
        List<DeclaringJob> jobs = new ArrayList<>();
        for (var r : dsl.select(ns, job, role, jobFacets).from(io).leftJoin(s)
                .on(DSL.field(DSL.name("s", "kind")).eq("JOB"), DSL.field(DSL.name("s", "namespace")).eq(ns), DSL.field(DSL.name("s", "name")).eq(job))
                .where(DSL.field(DSL.name("io", "dataset")).eq(dataset)).orderBy(ns, job, role).fetch()) {
            jobs.add(new DeclaringJob(r.value1() + "/" + r.value2(), r.value3(), r.value4() == null ? JSON.createObjectNode() : parse(r.value4())));
        }
        if (facets.isEmpty() && jobs.isEmpty()
                && !dsl.fetchExists(DSL.selectOne().from(DECLARED).where(KNOWN_AS.eq(dataset), KIND.eq("DATASET")))) {
            return Optional.empty();
        }
        return Optional.of(new Declared(facets, jobs));
    }

    private static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new SluiceException("a stored static lineage event or its facets are not JSON: " + e.getMessage(), e);
        }
    }
}
