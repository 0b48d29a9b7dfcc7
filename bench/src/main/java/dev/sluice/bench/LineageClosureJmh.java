package dev.sluice.bench;

import dev.sluice.lineage.store.LineageRepository;
import dev.sluice.config.WarehouseSpec;
import dev.sluice.warehouse.Warehouse;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * JMH micro-measure of the lineage store: the downstream closure of {@code landing/flights} (depth
 * 10) over {@code runs} recorded runs of the flights graph ({@link LineageClosureBench#load}: 6
 * dataset edges per run over 182 daily partitions) in an in-memory H2 warehouse, through
 * {@link LineageRepository#downstream}, the query {@code sluice lineage downstream} and the catalog
 * API run. Sample-time mode, milliseconds per closure.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class LineageClosureJmh {

    /** Runs recorded in the store before measuring. */
    @Param("10000")
    public int runs;

    private Warehouse warehouse;
    private LineageRepository repository;

    /** Fills a fresh store (not measured). */
    @Setup(Level.Trial)
    public void fill() {
        warehouse = Warehouse.open(new WarehouseSpec("jdbc:h2:mem:lineage-jmh-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1", "sa", ""));
        LineageClosureBench.load(warehouse.dsl(), runs);
        repository = new LineageRepository(warehouse.dsl());
    }

    /** Closes the store. */
    @TearDown(Level.Trial)
    public void close() {
        warehouse.close();
    }

    /** One downstream closure; returns the datasets found (consumed, so it is not optimised away). */
    @Benchmark
    public int downstreamClosure() {
        return repository.downstream("landing/flights", 10).size();
    }
}
