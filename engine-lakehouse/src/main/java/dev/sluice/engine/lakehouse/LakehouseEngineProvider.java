package dev.sluice.engine.lakehouse;

import dev.sluice.config.PipelineSpec;
import dev.sluice.core.RunId;
import dev.sluice.config.SpecProblem;
import dev.sluice.engine.EngineDescription;
import dev.sluice.engine.EngineProvider;
import dev.sluice.engine.LayerEngine;
import dev.sluice.warehouse.Warehouse;
import dev.sluice.warehouse.meta.PartitionVersionTable;
import java.util.List;
import java.util.function.Function;
import org.jooq.ExecuteListener;
import org.jspecify.annotations.Nullable;

/**
 * The lakehouse engine ({@code engine: lakehouse}): Apache Iceberg tables in the warehouse database's JDBC catalog, built by Spark SQL; a stop cancels a write between its Spark jobs, so the statement listener is not used. Registered in
 * {@code META-INF/services/dev.sluice.engine.EngineProvider}. Stateless and thread-safe.
 */
public final class LakehouseEngineProvider implements EngineProvider {

    @Override
    public String name() {
        return "lakehouse";
    }

    @Override
    public LayerEngine open(Warehouse warehouse, PipelineSpec spec, @Nullable Function<RunId, ExecuteListener> statements) {
        return new LakehouseEngine(warehouse, spec);
    }

    /** {@inheritDoc} Every Silver/Gold table's SQL and quarantine rule parsed by Spark's parser ({@link SparkSqlCheck}). */
    @Override
    public List<SpecProblem> validate(PipelineSpec spec) {
        return SparkSqlCheck.check(spec);
    }

    @Override
    public EngineDescription describe(PipelineSpec spec) {
        int keep = spec.keepVersions();
        return new EngineDescription(
                "Layer engine: **lakehouse**. Bronze, Silver and Gold are Apache Iceberg tables (catalog `sluice` in the warehouse"
                        + " database, data files under `lakehouse.location`, partitioned by `_sluice_partition`); Silver and Gold are"
                        + " built by Spark SQL (docs/engines.md).",
                "Silver and Gold are Iceberg tables partitioned by `_sluice_partition` (the logical `_partition`); a run"
                        + " writes its partition's new version on a branch of its own (`sluice_v<N>_<key>`: its rows replaced in one"
                        + " Iceberg commit, or merged by key), records it in `" + PartitionVersionTable.NAME + "`, and publishes it after"
                        + " its gate with one commit replacing that partition's files on main; " + keep + " version"
                        + (keep == 1 ? " is" : "s are") + " kept per partition (as branches) for rollback.",
                "Each boundary's gate judges a partition before its new version is published: on the lakehouse engine a"
                        + " Silver/Gold version is staged on an Iceberg branch of its own, the gate judges that branch, and only a pass"
                        + " makes its files the partition's on the table's main branch.",
                """
                Engine: lakehouse. Bronze, Silver and Gold are Apache Iceberg tables under %s, built by Spark SQL;
                their catalog is in the warehouse database. On one machine the warehouse engine runs this quickstart
                faster (docs/benchmarks.md, the quickstart rows): this one runs Spark jobs for every table of every
                wave of days and commits Iceberg snapshots for every table of every day, and it
                pays off on a Spark cluster (spark.master, docs/cluster.md).
                """.formatted(spec.engine().location()),
                null, true, false);
    }
}
