package dev.sluice.engine.lakehouse;

import dev.sluice.engine.BronzeColumns;
import dev.sluice.engine.BronzeRow;
import dev.sluice.engine.BronzeSink;
import dev.sluice.config.ColumnType;
import dev.sluice.core.SluiceException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;
import java.util.UUID;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;

/**
 * Appends a Bronze step's chunks to an Iceberg table with Iceberg's Java data API (no Spark job per
 * chunk): each chunk is one Parquet data file in the partition's directory and one fast-append commit,
 * whose snapshot summary records the run ({@link #RUN_PROPERTY}), the file and the last row
 * position of the chunk ({@link #SOURCE_PROPERTY}, {@link #POSITION_PROPERTY}).
 *
 * <p>The commit happens in {@link #append}, before the chunk's database transaction (landed-file
 * records, step context) commits. A crash between the two leaves the rows in Bronze and the
 * database a chunk behind; the restart resumes after the highest {@code _source_pos} Bronze holds
 * ({@link LakehouseEngine#committed}), so nothing is appended twice, and a file whose last row is
 * already in Bronze is marked loaded when the restart finds no row left. A data file written but not
 * committed is an orphan no snapshot references (purge removes it). Not thread-safe; one per step
 * execution.
 */
final class IcebergBronzeSink implements BronzeSink {

    /** Snapshot summary key: the run that appended the chunk. */
    static final String RUN_PROPERTY = "sluice.run_id";
    /** Snapshot summary key: the file ({@code _source}) of the chunk's last row. */
    static final String SOURCE_PROPERTY = "sluice.source";
    /** Snapshot summary key: the chunk's last {@code _source_pos}. */
    static final String POSITION_PROPERTY = "sluice.source_pos";

    private final Table table;
    private final BronzeColumns columns;
    private final Schema schema;
    private final PartitionSpec spec;
    private final PartitionKey partitionKey;
    /** Each written column's position in the table's schema: columns drift added come after the metadata columns. */
    private final int[] positions;

    IcebergBronzeSink(Table table, BronzeColumns columns) {
        this.table = table;
        this.columns = columns;
        this.schema = table.schema();
        this.spec = table.spec();
        GenericRecord key = GenericRecord.create(schema);
        key.setField(LakehouseNames.PARTITION, columns.partition().key());
        this.partitionKey = new PartitionKey(spec, schema);
        partitionKey.partition(key);
        List<String> names = schema.columns().stream().map(Types.NestedField::name).toList();
        this.positions = new int[columns.names().size()];
        for (int i = 0; i < positions.length; i++) {
            String name = LakehouseNames.physical(columns.names().get(i));
            positions[i] = names.indexOf(name);
            if (positions[i] < 0) {
                throw new SluiceException(columns.table() + " has no column " + name + " in the lakehouse");
            }
        }
    }

    @Override
    public void append(List<BronzeRow> rows) {
        if (rows.isEmpty()) {
            return;
        }
        OutputFile out = table.io().newOutputFile(table.locationProvider().newDataLocation(spec, partitionKey,
                columns.run() + "-" + UUID.randomUUID() + ".parquet"));
        DataWriter<Record> writer;
        try {
            writer = Parquet.writeData(out).schema(schema).createWriterFunc(GenericParquetWriter::create)
                    .withSpec(spec).withPartition(partitionKey).overwrite().build();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a data file of " + columns.table() + " at " + out.location(), e);
        }
        int n = columns.businessColumns();
        List<Types.NestedField> fields = schema.columns();
        try (writer) {
            for (BronzeRow r : rows) {
                GenericRecord record = GenericRecord.create(schema);
                Object[] v = r.values();
                for (int i = 0; i < n; i++) {
                    record.set(positions[i], value(v[i], columns.types().get(i), fields.get(positions[i])));
                }
                record.set(positions[n], columns.partition().key());
                record.set(positions[n + 1], columns.run().toString());
                record.set(positions[n + 2], r.source());
                record.set(positions[n + 3], r.position());
                record.set(positions[n + 4], columns.ingestedAt());
                record.set(positions[n + 5], r.rowHash());
                record.set(positions[n + 6], r.parseErrors());
                writer.write(record);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write a data file of " + columns.table() + " at " + out.location(), e);
        }
        BronzeRow last = rows.get(rows.size() - 1);
        // a fast append: a new manifest per chunk, none merged at commit (Iceberg's MergeAppend rewrites
        // manifests once a table has 100); the load's compaction rewrites the chunks' files anyway
        table.newFastAppend().appendFile(writer.toDataFile())
                .set(RUN_PROPERTY, columns.run().toString())
                .set(SOURCE_PROPERTY, last.source())
                .set(POSITION_PROPERTY, Long.toString(last.position()))
                .commit();
    }

    /** A reader's value as the Java type Iceberg's generic records hold for the column. */
    private static Object value(Object v, ColumnType type, Types.NestedField field) {
        if (v == null) {
            return null;
        }
        return switch (type) {
            case INT -> ((Number) v).intValue();
            case LONG -> ((Number) v).longValue();
            case FLOAT -> ((Number) v).floatValue();
            case DOUBLE -> ((Number) v).doubleValue();
            case DECIMAL -> decimal(v, ((Types.DecimalType) field.type()).scale());
            case DATE -> v instanceof java.sql.Date d ? d.toLocalDate() : (LocalDate) v;
            case TIMESTAMP -> v instanceof java.sql.Timestamp t ? t.toLocalDateTime() : (LocalDateTime) v;
            case STRING -> v.toString();
            case BOOLEAN -> (Boolean) v;
        };
    }

    private static BigDecimal decimal(Object v, int scale) {
        BigDecimal d = v instanceof BigDecimal b ? b : new BigDecimal(v.toString());
        try {
            return d.setScale(scale, RoundingMode.UNNECESSARY);
        } catch (ArithmeticException e) {
            throw new SluiceException("decimal " + d + " has more than " + scale + " digits after the point", e);
        }
    }
}
