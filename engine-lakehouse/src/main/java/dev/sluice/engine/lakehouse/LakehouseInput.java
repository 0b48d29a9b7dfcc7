package dev.sluice.engine.lakehouse;

import dev.sluice.control.landing.LandedFileRepository;
import dev.sluice.control.version.InputPartitions;
import dev.sluice.config.ColumnSpec;
import dev.sluice.config.PipelineSpec;
import dev.sluice.config.SourceSpec;
import dev.sluice.config.TableSpec;
import dev.sluice.core.Layer;
import dev.sluice.core.Partition;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.jooq.DSLContext;
import org.jspecify.annotations.Nullable;

/**
 * The input rows of one lakehouse Silver/Gold partition, as a Spark DataFrame whose partition
 * column has its logical name {@code _partition}: for Silver over Bronze, the partition's current
 * loads (the current files' (source, run) from {@code sluice.landed_file}, as literals);
 * otherwise every row of the input partitions (a lakehouse table holds only published rows). A
 * rollup reads every input partition inside its rollup partition. Thread-safe.
 */
final class LakehouseInput {

    private final SparkSession spark;
    private final DSLContext dsl;
    private final PipelineSpec spec;
    private final TableSpec table;
    private final TableSpec input;

    LakehouseInput(SparkSession spark, DSLContext dsl, PipelineSpec spec, TableSpec table) {
        this.spark = spark;
        this.dsl = dsl;
        this.spec = spec;
        this.table = table;
        this.input = spec.table(table.inputTable().orElseThrow())
                .orElseThrow(() -> new IllegalArgumentException("no input table for " + table.table()));
    }

    TableSpec spec() {
        return input;
    }

    /** The source of a Bronze input, or null. */
    @Nullable SourceSpec source() {
        return input.layer() == Layer.BRONZE && input.source() != null ? spec.source(input.source()).orElse(null) : null;
    }

    /** The input's business columns: a Bronze input's contract columns, else its declared columns. */
    List<String> businessColumns() {
        SourceSpec source = source();
        List<ColumnSpec> columns = source != null ? source.contract().columns() : input.columns();
        return columns.stream().map(ColumnSpec::name).toList();
    }

    /** The input partitions a run of {@code partition} reads, as first and last key (equal unless a rollup). */
    Partition[] partitions(Partition partition) {
        return InputPartitions.of(spec, table, input, partition);
    }

    /** The input rows of a run of {@code partition}, {@code _sluice_partition} renamed {@code _partition}. */
    Dataset<Row> rows(Partition partition) {
        return spark.table(LakehouseNames.spark(input.table())).where(condition(partition))
                .withColumnRenamed(LakehouseNames.PARTITION, LakehouseNames.LOGICAL_PARTITION);
    }

    /**
     * The input rows of the runs of {@code partitions} in one scan, {@code _sluice_partition}
     * renamed {@code _partition}; for a table whose every partition reads its own input partition
     * (each row's {@code _partition} is then its run's partition).
     */
    Dataset<Row> rows(List<Partition> partitions) {
        String any = partitions.stream().map(p -> "(" + condition(p) + ")").collect(Collectors.joining(" OR "));
        return spark.table(LakehouseNames.spark(input.table())).where(any)
                .withColumnRenamed(LakehouseNames.PARTITION, LakehouseNames.LOGICAL_PARTITION);
    }

    /** The files the input of {@code partition} holds now (Bronze: the current loads' sources); empty for other inputs. */
    List<String> sources(Partition partition) {
        if (input.layer() != Layer.BRONZE) {
            return List.of();
        }
        return new LandedFileRepository(dsl).currentLoads(input.table().qualifiedName(), partitions(partition)[0]).stream()
                .map(LandedFileRepository.CurrentLoad::source).toList();
    }

    /** Spark SQL over the input table: its partitions and, for Bronze, the current loads; FALSE when nothing is current. */
    String condition(Partition partition) {
        Partition[] range = partitions(partition);
        String key = range[0].equals(range[1])
                ? LakehouseNames.PARTITION + " = " + quote(range[0].key())
                : LakehouseNames.PARTITION + " BETWEEN " + quote(range[0].key()) + " AND " + quote(range[1].key());
        if (input.layer() != Layer.BRONZE) {
            return key;
        }
        return key + " AND " + currentLoads(new LandedFileRepository(dsl).currentLoads(input.table().qualifiedName(), range[0]));
    }

    /** Spark SQL selecting the rows of {@code loads} (their (source, run) as literals); FALSE when there are none. */
    static String currentLoads(List<LandedFileRepository.CurrentLoad> loads) {
        if (loads.isEmpty()) {
            return "FALSE";
        }
        return "(" + loads.stream().map(l -> "(_source = " + quote(l.source()) + " AND _run_id = " + quote(l.run()) + ")")
                .collect(Collectors.joining(" OR ")) + ")";
    }

    /** {@code text} as a Spark SQL string literal: Spark escapes a quote with a backslash (it reads {@code 'it''s'} as {@code its}). */
    static String quote(String text) {
        return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'";
    }
}
