package dev.sluice.lineage.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.sluice.core.Partition;
import dev.sluice.lineage.LineageDataset;
import dev.sluice.lineage.LineageEmitter.RunEvent;
import dev.sluice.lineage.LineageEmitter;
import dev.sluice.lineage.RunEventType;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.jooq.DSLContext;
import org.jooq.Field;
import org.jooq.Record;
import org.jooq.Result;
import org.jooq.Table;
import org.jooq.impl.DSL;
import org.jspecify.annotations.Nullable;

/**
 * {@code sluice.lineage_event} and {@code sluice.lineage_edge}: the events Sluice emitted and the
 * dataset edges of completed step runs, with the dataset graph they make ({@link DatasetGraph},
 * written in the transaction of the edges), and the queries over them: upstream and downstream
 * closure (over the graph, one set-based query per level, so its cost follows the graph's size, not
 * the number of runs), impact, and the runs that wrote a dataset. Edges name a dataset
 * by the name Sluice knows it by ({@link LineageDataset#knownAs()}): a lakehouse table, named in
 * its events by its location, by its catalog table; events of other tools naming it by that
 * location are stored under the same name ({@code sluice.lineage_alias}). Statements
 * auto-commit (the store is written from the lineage sender thread). Thread-safe.
 */
public final class LineageRepository implements LineageEmitter.Store {

    /** {@code sluice.lineage_event}: every stored event (for purge and read-only queries of other modules). */
    public static final Table<?> EVENTS = DSL.table(DSL.name("sluice", "lineage_event"));
    /** {@code sluice.lineage_edge}: dataset → dataset edges of each run. */
    public static final Table<?> EDGES = DSL.table(DSL.name("sluice", "lineage_edge"));
    /** {@code sluice.lineage_column}: column → column edges of each run. */
    public static final Table<?> COLUMNS = DSL.table(DSL.name("sluice", "lineage_column"));
    /** {@code sluice.lineage_alias}: (namespace, name) of a dataset named by its location → the name it is known by. */
    public static final Table<?> ALIASES = DatasetAliases.TABLE;
    private static final Field<String> INPUT = DSL.field(DSL.name("input_name"), String.class);
    private static final Field<String> OUTPUT = DSL.field(DSL.name("output_name"), String.class);
    private static final Field<String> PARTITION = DSL.field(DSL.name("partition_key"), String.class);
    private static final Field<String> READ_FROM = DSL.field(DSL.name("input_partition_from"), String.class);
    private static final Field<String> READ_TO = DSL.field(DSL.name("input_partition_to"), String.class);
    /** The last partition of a ranged input, null when one partition was read (indexed with the input's name). */
    private static final Field<String> RANGE_TO = DSL.field(DSL.name("input_range_to"), String.class);
    private static final Field<String> JOB = DSL.field(DSL.name("job"), String.class);

    private final DSLContext dsl;
    private final LineageRuns runs;
    private final DatasetGraph graph;
    private final DatasetAliases aliases;

    public LineageRepository(DSLContext dsl) {
        this.dsl = dsl;
        this.runs = new LineageRuns(dsl);
        this.graph = new DatasetGraph(dsl);
        this.aliases = new DatasetAliases(dsl);
    }

    @Override
    public void store(RunEvent event, String openLineageJson) {
        OffsetDateTime at = event.at().atOffset(ZoneOffset.UTC);
        String parent = event.parentRun() == null ? null : event.parentRun().toString();
        if (!insertEvent(event.run().toString(), parent, event.job(), event.type().name(), at, event.partition().key(), openLineageJson,
                CanonicalJson.sha256(openLineageJson))) {
            return; // sent twice (a retried transport): stored once
        }
        if (event.type() != RunEventType.COMPLETE || event.kind() != LineageEmitter.RunKind.STEP) {
            return;
        }
        Map<String, String> known = new LinkedHashMap<>();
        for (LineageDataset d : concat(event.inputs(), event.outputs())) {
            if (d.table() != null) {
                aliases.record(d.namespace(), d.name(), d.knownAs());
                known.put(d.namespace() + "\n" + d.name(), d.knownAs());
            }
        }
        for (LineageDataset out : event.outputs()) {
            for (LineageDataset.ColumnInput c : out.columnLineage()) {
                insertColumn(event.run().toString(), out.knownAs(), new ForeignColumns.Row(c.column(), c.namespace(),
                        known.getOrDefault(c.namespace() + "\n" + c.name(), c.name()), c.field(), "DIRECT", c.subtype(), null, c.masking()));
            }
        }
        // the edges and the graph they extend: one transaction
        dsl.transaction(tx -> {
            LineageRepository in = new LineageRepository(tx.dsl());
            for (LineageDataset input : event.inputs()) {
                for (LineageDataset out : event.outputs()) {
                    String written = out.partitionKey() == null ? event.partition().key() : out.partitionKey();
                    String read = input.partitionKey() == null ? Partition.NONE.key() : input.partitionKey();
                    int slash = read.indexOf('/');
                    in.insertEdge(event.run().toString(), parent, event.job(), written, slash < 0 ? read : read.substring(0, slash),
                            slash < 0 ? read : read.substring(slash + 1),
                            knownNamespace(input), input.knownAs(), knownNamespace(out), out.knownAs(), out.version(), out.rowCount(), at,
                            false);
                }
            }
        });
    }

    private static List<LineageDataset> concat(List<LineageDataset> a, List<LineageDataset> b) {
        List<LineageDataset> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /** The namespace of the name a dataset is known by: its catalog's for a dataset named by location. */
    private static String knownNamespace(LineageDataset d) {
        return d.table() == null ? d.namespace() : d.table().namespace();
    }

    /**
     * Stores an OpenLineage run event received from another tool (already validated): the event
     * as sent; its run, folded again from all of the run's events ({@link LineageRuns}: state,
     * parent, nominal time, error message, facets, datasets); and for a COMPLETE event its
     * input × output dataset edges and the column lineage of its outputs ({@code columnLineage}
     * facets, {@link ForeignColumns}). Events are stored as they arrive, in any order: a step's
     * event may come before its parent's; queries join them by run id.
     *
     * @return true when stored; false when an event with the same run id, event type, event time,
     *     job and the same body (as canonical JSON: keys sorted, no spacing) is stored already, and
     *     nothing was written. A different body under the same key is stored as a new event.
     *     All of it is one transaction: a process killed half-way leaves nothing, so the
     *     client's retry is not taken for a duplicate of an event whose edges were never written.
     */
    public boolean storeForeign(JsonNode e, String json) {
        // the run's writers in this JVM one at a time, each until its commit: the run's fold then reads every event
        // a concurrent request of the same run stored (a fold inside an uncommitted transaction would miss the other's)
        synchronized (LineageRuns.lock(e.path("run").path("runId").asText())) {
            return dsl.transactionResult(tx -> new LineageRepository(tx.dsl()).storeForeignNow(e, json));
        }
    }

    private boolean storeForeignNow(JsonNode e, String json) {
        String runId = e.path("run").path("runId").asText();
        String parent = e.path("run").path("facets").path("parent").path("run").path("runId").asText(null);
        String job = e.path("job").path("name").asText();
        String type = e.path("eventType").asText("OTHER");
        OffsetDateTime at = OffsetDateTime.parse(e.path("eventTime").asText());
        String partition = e.path("run").path("facets").path("sluice_run").path("partition").asText("none");
        if (!insertEvent(runId, parent, job, type, at, partition, json, CanonicalJson.sha256(e))) {
            return false;
        }
        runs.refresh(runId, aliases::knownAs);
        if (!"COMPLETE".equals(type)) {
            return true;
        }
        for (JsonNode out : e.path("outputs")) {
            String output = aliases.knownAs(out.path("namespace").asText(), out.path("name").asText());
            for (ForeignColumns.Row c : ForeignColumns.of(out)) {
                insertColumn(runId, output, new ForeignColumns.Row(c.outputColumn(), c.inputNamespace(),
                        aliases.knownAs(c.inputNamespace(), c.inputName()), c.inputField(), c.type(), c.subtype(), c.description(), c.masking()));
            }
        }
        for (JsonNode in : e.path("inputs")) {
            for (JsonNode out : e.path("outputs")) {
                var rows = out.path("outputFacets").path("outputStatistics").path("rowCount");
                insertEdge(runId, parent, job, partition, partition, partition, in.path("namespace").asText(),
                        aliases.knownAs(in.path("namespace").asText(), in.path("name").asText()),
                        out.path("namespace").asText(), aliases.knownAs(out.path("namespace").asText(), out.path("name").asText()),
                        out.path("facets").path("version").path("datasetVersion").asText(null), rows.isNumber() ? rows.asLong() : null, at,
                        true);
            }
        }
        return true;
    }

    /**
     * Stores an OpenLineage 2.0 DatasetEvent or JobEvent received from another tool (static lineage,
     * already validated): the event as sent, and the dataset or job it declares with its facets
     * (and a JobEvent's inputs and outputs with theirs), folded again from every event that tells
     * of them ({@link StaticLineage}). No run and no edge: nothing ran. One transaction.
     *
     * @return true when stored; false when the same event (canonical JSON) is stored already, and nothing was written
     */
    public boolean storeStatic(JsonNode e, String json) {
        synchronized (StaticLineage.WRITERS) {
            return dsl.transactionResult(tx -> new StaticLineage(tx.dsl(), new DatasetAliases(tx.dsl())).store(e, json));
        }
    }

    /** The dataset Sluice knows by {@code dataset} as static lineage declares it, or empty when none did. */
    public Optional<StaticLineage.Declared> declared(String dataset) {
        return new StaticLineage(dsl, aliases).dataset(dataset);
    }

    /** Inserts the event unless the same (run, type, time, job, body) is stored; true when inserted. */
    private boolean insertEvent(String runId, @Nullable String parent, String job, String type, OffsetDateTime at, String partition,
            String json, String sha256) {
        Field<String> run = DSL.field(DSL.name("run_id"), String.class);
        Field<String> eventType = DSL.field(DSL.name("event_type"), String.class);
        Field<OffsetDateTime> time = DSL.field(DSL.name("event_time"), OffsetDateTime.class);
        Field<String> jobName = DSL.field(DSL.name("job"), String.class);
        Field<String> body = DSL.field(DSL.name("body_sha256"), String.class);
        if (dsl.fetchExists(DSL.selectOne().from(EVENTS).where(run.eq(runId), eventType.eq(type), time.eq(at), jobName.eq(job), body.eq(sha256)))) {
            return false;
        }
        // another process may store the same event at the same moment: the insert runs in a savepoint (a nested
        // transaction), so its unique-index violation rolls back only the savepoint, not this whole transaction
        // (on PostgreSQL an error aborts the transaction it happens in)
        try {
            return dsl.transactionResult(nested -> nested.dsl().insertInto(EVENTS)
                    .set(run, runId)
                    .set(DSL.field(DSL.name("parent_run_id"), String.class), parent)
                    .set(jobName, job)
                    .set(eventType, type)
                    .set(time, at)
                    .set(PARTITION, partition)
                    .set(DSL.field(DSL.name("event_json"), String.class), json)
                    .set(body, sha256)
                    .execute()) == 1;
        } catch (org.jooq.exception.IntegrityConstraintViolationException raced) {
            return false; // the other process stored it
        }
    }

    private void insertColumn(String runId, String output, ForeignColumns.Row c) {
        dsl.insertInto(COLUMNS)
                .set(DSL.field(DSL.name("run_id")), runId)
                .set(DSL.field(DSL.name("output_name")), output)
                .set(DSL.field(DSL.name("output_column")), clip(c.outputColumn(), 200))
                .set(DSL.field(DSL.name("input_name")), c.inputName())
                .set(DSL.field(DSL.name("input_column")), clip(c.inputField(), 200))
                .set(DSL.field(DSL.name("transformation_type")), clip(c.type(), 20))
                .set(DSL.field(DSL.name("subtype")), c.subtype() == null ? null : clip(c.subtype(), 100))
                .set(DSL.field(DSL.name("description")), c.description() == null ? null : clip(c.description(), 4000))
                .set(DSL.field(DSL.name("masking")), c.masking())
                .execute();
    }

    /** {@code text} cut to the column's width (a foreign tool's long description or name). */
    private static String clip(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max);
    }

    private void insertEdge(String runId, @Nullable String parent, String job, String partition, String readFrom, String readTo,
            String inputNamespace, String input,
            String outputNamespace, String output, @Nullable String version, @Nullable Long rows, OffsetDateTime at, boolean ingested) {
        dsl.insertInto(EDGES)
                .set(DSL.field(DSL.name("run_id")), runId)
                .set(DSL.field(DSL.name("parent_run_id")), parent)
                .set(DSL.field(DSL.name("job")), job)
                .set(PARTITION, partition)
                .set(READ_FROM, readFrom)
                .set(READ_TO, readTo)
                .set(DSL.field(DSL.name("input_namespace")), inputNamespace)
                .set(INPUT, input)
                .set(DSL.field(DSL.name("output_namespace")), outputNamespace)
                .set(OUTPUT, output)
                .set(DSL.field(DSL.name("output_version")), version)
                .set(DSL.field(DSL.name("output_rows")), rows)
                .set(DSL.field(DSL.name("event_time")), at)
                .set(RANGE_TO, readFrom.equals(readTo) ? null : readTo)
                .execute();
        graph.record(input, output, job, ingested, inputNamespace, outputNamespace, at);
    }

    /**
     * The datasets any recorded step run read or wrote (or an ingested run named, whatever its
     * state, or static lineage declared) whose name contains {@code query}
     * (case-insensitive; empty: all), sorted by name, at most {@code limit}.
     */
    public List<String> datasets(String query, int limit) {
        Field<String> name = DSL.field(DSL.name("name"), String.class);
        var names = DSL.select(INPUT.as("name")).from(DatasetGraph.GRAPH).union(DSL.select(OUTPUT.as("name")).from(DatasetGraph.GRAPH))
                .union(DSL.select(DSL.field(DSL.name("name"), String.class)).from(LineageRuns.DATASETS))
                .union(DSL.select(DSL.field(DSL.name("known_as"), String.class)).from(StaticLineage.DECLARED)
                        .where(DSL.field(DSL.name("kind")).eq("DATASET")))
                .union(DSL.select(DSL.field(DSL.name("dataset"), String.class)).from(StaticLineage.IO)).asTable("d");
        return dsl.selectDistinct(DSL.field(DSL.name("d", "name"), String.class)).from(names)
                .where(DSL.lower(DSL.field(DSL.name("d", "name"), String.class)).contains(query.toLowerCase(Locale.ROOT)))
                .orderBy(DSL.field(DSL.name("d", "name"))).limit(limit).fetch(0, String.class);
    }

    /**
     * True when some recorded step run read or wrote a dataset named {@code dataset}, or an
     * ingested run named it, or static lineage declared it.
     */
    public boolean known(String dataset) {
        return graph.knows(dataset)
                || dsl.fetchExists(DSL.selectOne().from(LineageRuns.DATASETS).where(DSL.field(DSL.name("name"), String.class).eq(dataset)))
                || new StaticLineage(dsl, aliases).knows(dataset);
    }

    /**
     * An edge of the lineage graph: {@code from} feeds {@code to} through {@code job} (Sluice's own
     * step job by its pipeline, another tool's job by its whole name). Values; thread-safe.
     */
    public record Edge(String from, String to, String job) {
    }

    /**
     * The datasets upstream of {@code dataset} (what it is built from), level by level, at most
     * {@code depth} levels, as edges in discovery order.
     */
    public List<Edge> upstream(String dataset, int depth) {
        return graph.walk(dataset, depth, true);
    }

    /** The datasets downstream of {@code dataset} (what is built from it), at most {@code depth} levels. */
    public List<Edge> downstream(String dataset, int depth) {
        return graph.walk(dataset, depth, false);
    }

    /**
     * A dataset partition built (directly or not) from another: {@code dataset} partition
     * {@code partition}, by {@code job} (Sluice's own step job by its pipeline, another tool's whole).
     */
    public record Impacted(String dataset, String partition, String job, int level) {
    }

    /**
     * Every downstream dataset partition built from {@code dataset} partition {@code partition}
     * (for a reference snapshot, {@code none}: every partition built from it), level by level: what
     * a re-load of that partition would make stale. A rollup built from a range of partitions
     * holding a partition is built from it (a day feeds its month).
     */
    public List<Impacted> impact(String dataset, String partition) {
        return impact(dataset, Set.of(partition));
    }

    /**
     * {@link #impact(String, String)} of many partitions of {@code dataset} at once. Per level, one
     * query of the graph finds which datasets of the level feed any other (the rest end there), then
     * one query per feeding dataset reads its edges of those partitions: those that read one of
     * them, and the ranged ones (a rollup's) whose range holds one, through the index of the ranges
     * alone.
     */
    public List<Impacted> impact(String dataset, Set<String> partitions) {
        Map<String, Impacted> out = new LinkedHashMap<>();
        Map<String, Set<String>> frontier = new LinkedHashMap<>(Map.of(dataset, new LinkedHashSet<>(partitions)));
        for (int level = 1; level <= 50 && !frontier.isEmpty(); level++) {
            Set<String> feeding = graph.feeding(frontier.keySet());
            Map<String, Set<String>> next = new LinkedHashMap<>();
            for (Map.Entry<String, Set<String>> f : frontier.entrySet()) {
                if (!feeding.contains(f.getKey())) {
                    continue; // nothing is built from it
                }
                Map<String, String> jobs = graph.shownJobs(f.getKey());
                TreeSet<String> keys = new TreeSet<>(f.getValue());
                boolean all = keys.contains(Partition.NONE.key()); // a snapshot's 'none' means every partition
                var select = dsl.selectDistinct(OUTPUT, PARTITION, JOB, READ_FROM, READ_TO).from(EDGES);
                var rows = all ? select.where(INPUT.eq(f.getKey())).orderBy(OUTPUT, PARTITION).fetch()
                        : select.where(INPUT.eq(f.getKey()), READ_FROM.in(keys))
                                .union(DSL.selectDistinct(OUTPUT, PARTITION, JOB, READ_FROM, READ_TO).from(EDGES)
                                        .where(INPUT.eq(f.getKey()), RANGE_TO.ge(keys.first()))) // the index of ranges alone; a range
                                // starting after the last partition is dropped below (a condition on its start would lead H2's planner
                                // to the index of starts, through every older edge of the input)
                                .orderBy(OUTPUT, PARTITION).fetch();
                for (var r : rows) {
                    String held = all ? null : keys.ceiling(r.value4());
                    if (!all && (held == null || held.compareTo(r.value5()) > 0)) {
                        continue; // a range that holds none of the partitions
                    }
                    String key = r.value1() + "@" + r.value2();
                    if (!out.containsKey(key) && !(r.value1().equals(dataset) && partitions.contains(r.value2()))) {
                        out.put(key, new Impacted(r.value1(), r.value2(),
                                jobs.getOrDefault(r.value1() + "\n" + r.value3(), DatasetGraph.shown(r.value3(), false)), level));
                        next.computeIfAbsent(r.value1(), k -> new LinkedHashSet<>()).add(r.value2());
                    }
                }
            }
            frontier = next;
        }
        return new ArrayList<>(out.values());
    }

    /**
     * A column's origin: {@code to} (dataset.column) is built from {@code from} (dataset.column) by
     * a transformation of {@code type} (DIRECT: the value comes from it; INDIRECT: it decides which
     * rows, e.g. a FILTER or JOIN) and {@code subtype} (IDENTITY, TRANSFORMATION, AGGREGATION…; null
     * when another tool's event gives none), described by {@code description} (or null),
     * {@code masking} when the value is hashed or masked on the way (OpenLineage ColumnLineageDatasetFacet 1-2-0).
     */
    public record ColumnEdge(String from, String to, @Nullable String subtype, boolean masking, String type, @Nullable String description) {
    }

    /**
     * Where {@code dataset}.{@code column} comes from, followed back to the landed files, as edges
     * in discovery order.
     */
    public List<ColumnEdge> columnOrigins(String dataset, String column) {
        List<ColumnEdge> out = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        Set<String> followed = new LinkedHashSet<>();
        List<String[]> frontier = List.<String[]>of(new String[] {dataset, column});
        Field<String> outName = DSL.field(DSL.name("output_name"), String.class);
        Field<String> outCol = DSL.field(DSL.name("output_column"), String.class);
        Field<String> inName = DSL.field(DSL.name("input_name"), String.class);
        Field<String> inCol = DSL.field(DSL.name("input_column"), String.class);
        Field<String> subtype = DSL.field(DSL.name("subtype"), String.class);
        Field<Boolean> masking = DSL.field(DSL.name("masking"), Boolean.class);
        Field<String> type = DSL.field(DSL.name("transformation_type"), String.class);
        Field<String> description = DSL.field(DSL.name("description"), String.class);
        for (int level = 0; level < 20 && !frontier.isEmpty(); level++) {
            List<String[]> next = new ArrayList<>();
            for (String[] f : frontier) {
                for (var r : dsl.selectDistinct(inName, inCol, subtype, masking, type, description).from(COLUMNS)
                        .where(outName.eq(f[0]), outCol.eq(f[1])).orderBy(inName, inCol, type, subtype, description).fetch()) {
                    String from = r.value1() + "." + r.value2();
                    ColumnEdge e = new ColumnEdge(from, f[0] + "." + f[1], r.value3(), Boolean.TRUE.equals(r.value4()), r.value5(), r.value6());
                    if (seen.add(e.toString())) {
                        out.add(e);
                    }
                    if (followed.add(from)) {
                        next.add(new String[] {r.value1(), r.value2()});
                    }
                }
            }
            frontier = next;
        }
        return out;
    }

    /**
     * The runs that wrote {@code dataset} (newest first), optionally of one partition: the step runs
     * that completed it (from the edges) and the ingested runs of other tools that named it as an
     * output but did not complete (a FAIL, an ABORT, one still running). Columns: run_id,
     * parent_run_id, job, partition_key, output_version, output_rows (null when not completed),
     * inputs (comma-separated names), completed_at (the end, or the start of a run still going),
     * state (COMPLETE for Sluice's own step runs), nominal_time (an ingested run's nominal start,
     * else null), error_message (an ingested run's {@code errorMessage} facet, else null).
     */
    public Result<? extends Record> runs(String dataset, @Nullable String partition) {
        return new DatasetRuns(dsl).of(dataset, partition);
    }
}
