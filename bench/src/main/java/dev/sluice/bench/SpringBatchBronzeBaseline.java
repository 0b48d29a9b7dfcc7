package dev.sluice.bench;

import dev.sluice.batch.job.BatchInfrastructure;
import dev.sluice.formats.LocalParquetFile;
import dev.sluice.formats.ParquetTimestamps;
import dev.sluice.warehouse.Warehouse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.util.Iterator;
import java.util.List;
import java.util.UUID;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.jspecify.annotations.Nullable;
import org.springframework.batch.core.job.Job;
import org.springframework.batch.core.job.JobExecution;
import org.springframework.batch.core.job.builder.JobBuilder;
import org.springframework.batch.core.job.parameters.JobParametersBuilder;
import org.springframework.batch.core.step.Step;
import org.springframework.batch.core.step.builder.StepBuilder;
import org.springframework.batch.infrastructure.item.ExecutionContext;
import org.springframework.batch.infrastructure.item.ItemStreamReader;
import org.springframework.batch.infrastructure.item.database.JdbcBatchItemWriter;
import org.springframework.batch.infrastructure.item.database.builder.JdbcBatchItemWriterBuilder;

/**
 * The baseline of the Bronze ingest measure: the Spring Batch job a competent user writes to load
 * Parquet files into a table, as the Spring Batch reference shows it ("Configuring a Step",
 * chunk-oriented processing): one chunk-oriented step, chunk size 1,000, an {@link ItemStreamReader}
 * over the files with parquet-hadoop's example {@code Group} reader (through the same Hadoop-free
 * {@link LocalParquetFile} Sluice reads with, so both sides decode alike) and Spring Batch's
 * {@link JdbcBatchItemWriter} with a prepared {@code INSERT} of the five columns; the JDBC job
 * repository in the same database; the driver's default settings (no {@code reWriteBatchedInserts}).
 *
 * <p>It writes less than Sluice's Bronze per row (no partition, run id, source file, position,
 * ingest time, row hash or parse errors) and checks nothing, which favours it.
 *
 * <p>Table written: {@code baseline.flights_raw (date TIMESTAMP, delay BIGINT, distance BIGINT,
 * origin VARCHAR(8), destination VARCHAR(8))}. Not thread-safe.
 */
final class SpringBatchBronzeBaseline {

    /** One flight as the job carries it. */
    record Flight(LocalDateTime date, long delay, long distance, String origin, String destination) {
    }

    private SpringBatchBronzeBaseline() {
    }

    /** Runs the job over {@code files} into a fresh {@code baseline.flights_raw}; returns the rows it wrote (Spring Batch's write count). */
    static long run(Warehouse warehouse, List<Path> files) throws Exception {
        warehouse.dsl().execute("CREATE SCHEMA IF NOT EXISTS baseline");
        warehouse.dsl().execute("DROP TABLE IF EXISTS baseline.flights_raw");
        warehouse.dsl().execute("CREATE TABLE baseline.flights_raw (date TIMESTAMP, delay BIGINT, distance BIGINT,"
                + " origin VARCHAR(8), destination VARCHAR(8))");
        BatchInfrastructure batch = BatchInfrastructure.on(warehouse);
        JdbcBatchItemWriter<Flight> writer = new JdbcBatchItemWriterBuilder<Flight>()
                .dataSource(warehouse.dataSource())
                .sql("INSERT INTO baseline.flights_raw (date, delay, distance, origin, destination) VALUES (?, ?, ?, ?, ?)")
                .itemPreparedStatementSetter((f, ps) -> {
                    ps.setTimestamp(1, Timestamp.valueOf(f.date()));
                    ps.setLong(2, f.delay());
                    ps.setLong(3, f.distance());
                    ps.setString(4, f.origin());
                    ps.setString(5, f.destination());
                })
                .build();
        writer.afterPropertiesSet();
        Step step = new StepBuilder("ingest", batch.repository())
                .<Flight, Flight>chunk(1_000)
                .transactionManager(warehouse.transactionManager())
                .reader(new ParquetFlightsReader(files))
                .writer(writer)
                .build();
        Job job = new JobBuilder("baseline-bronze-ingest", batch.repository()).start(step).build();
        JobExecution execution = batch.operator().start(job, new JobParametersBuilder()
                .addString("run", UUID.randomUUID().toString()).toJobParameters());
        if (!execution.getStatus().name().equals("COMPLETED")) {
            throw new IllegalStateException("the baseline job ended " + execution.getStatus() + ": " + execution.getAllFailureExceptions());
        }
        return execution.getStepExecutions().stream().mapToLong(e -> e.getWriteCount()).sum();
    }

    /** Reads every row of the files in order; restart state is not kept (a re-run starts over). */
    static final class ParquetFlightsReader implements ItemStreamReader<Flight> {

        private final Iterator<Path> files;
        private @Nullable ParquetReader<Group> current;
        private LogicalTypeAnnotation.@Nullable TimestampLogicalTypeAnnotation dateType;

        ParquetFlightsReader(List<Path> files) {
            this.files = files.iterator();
        }

        @Override
        public void open(ExecutionContext executionContext) {
        }

        @Override
        public @Nullable Flight read() throws IOException {
            while (true) {
                if (current == null) {
                    if (!files.hasNext()) {
                        return null;
                    }
                    Path next = files.next();
                    try (ParquetFileReader footer = ParquetFileReader.open(new LocalParquetFile(next))) {
                        MessageType schema = footer.getFileMetaData().getSchema();
                        dateType = (LogicalTypeAnnotation.TimestampLogicalTypeAnnotation) schema.getType("date").getLogicalTypeAnnotation();
                    }
                    current = new LocalParquetFile(next).groupReader();
                }
                Group g = current.read();
                if (g != null) {
                    return new Flight(ParquetTimestamps.toLocalDateTime(g.getLong("date", 0), dateType), whole(g, "delay"),
                            whole(g, "distance"), g.getString("origin", 0), g.getString("destination", 0));
                }
                current.close();
                current = null;
            }
        }

        /** An INT32 or INT64 column as a long. */
        private static long whole(Group g, String column) {
            var type = g.getType().getType(column).asPrimitiveType().getPrimitiveTypeName();
            return type == PrimitiveType.PrimitiveTypeName.INT32 ? g.getInteger(column, 0) : g.getLong(column, 0);
        }

        @Override
        public void close() {
            if (current != null) {
                try {
                    current.close();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                current = null;
            }
        }
    }

    /** The {@code .parquet} files under {@code dir}, sorted by name. */
    static List<Path> parquetFiles(Path dir) throws IOException {
        try (var s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".parquet")).sorted().toList();
        }
    }
}
