package dev.sluice.batch.bronze;

import dev.sluice.config.ColumnSpec;
import dev.sluice.config.ColumnType;
import dev.sluice.config.DecimalSpec;
import dev.sluice.core.BadInputException;
import dev.sluice.formats.LocalParquetFile;
import dev.sluice.formats.ParquetTimestamps;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;
import org.jspecify.annotations.Nullable;

/**
 * Reads a Parquet file with parquet-hadoop's record reader (no Hadoop file system: see
 * {@link LocalParquetFile}). Columns are found by name. Conversions: INT32/INT64 to the contract's
 * int/long (INT32 widens to long), FLOAT/DOUBLE to double, BINARY strings to text, DATE to
 * LocalDate, and INT64 TIMESTAMP (MILLIS/MICROS/NANOS) to LocalDateTime: a naive timestamp as is,
 * a UTC-adjusted one in UTC (Parquet format spec, LogicalTypes.md "TIMESTAMP"); a NANOS value with
 * a digit below the microsecond is a field error (a timestamp column holds microseconds), never cut.
 *
 * <p>A DECIMAL (LogicalTypes.md "DECIMAL": the unscaled value as INT32, INT64, or a big-endian
 * two's-complement FIXED_LEN_BYTE_ARRAY or BINARY, with precision and scale in the annotation), and
 * an INT32/INT64 without annotation, read into a {@code decimal(p,s)} column as its exact value at
 * the column's scale; a value with more digits before or after the point than the column holds is
 * a field error, never rounded ({@link DecimalSpec#fit}). Not thread-safe.
 */
final class ParquetSourceReader implements SourceFileReader {

    private final String displayName;
    private final List<ColumnSpec> columns;
    private final int[] index;
    private final PrimitiveType[] types;
    private final ParquetReader<Group> reader;
    private long position;

    ParquetSourceReader(Path file, List<ColumnSpec> columns, String displayName) {
        this.displayName = displayName;
        this.columns = columns;
        try {
            this.reader = new LocalParquetFile(file).groupReader();
        } catch (IOException | RuntimeException e) {
            throw new BadInputException(displayName, -1, null, "cannot read as Parquet: " + e.getMessage(), e);
        }
        this.index = new int[columns.size()];
        this.types = new PrimitiveType[columns.size()];
        GroupType schema = readSchema(file);
        for (int i = 0; i < columns.size(); i++) {
            String name = columns.get(i).name();
            if (!schema.containsField(name) && columns.get(i).nullable()) {
                index[i] = -1;
                continue;
            }
            if (!schema.containsField(name)) {
                close();
                throw new BadInputException(displayName, -1, name, "the contract's column is not in the file's schema " + schema.getFields().stream().map(Type::getName).toList());
            }
            Type t = schema.getType(name);
            if (!t.isPrimitive()) {
                close();
                throw new BadInputException(displayName, -1, name, "a nested Parquet column cannot be read as " + columns.get(i).typeId());
            }
            index[i] = schema.getFieldIndex(name);
            types[i] = t.asPrimitiveType();
        }
    }

    private GroupType readSchema(Path file) {
        try (var f = ParquetFileReader.open(new LocalParquetFile(file))) {
            return f.getFileMetaData().getSchema();
        } catch (IOException e) {
            throw new BadInputException(displayName, -1, null, "cannot read the Parquet footer: " + e.getMessage(), e);
        }
    }

    @Override
    public @Nullable SourceRow next() {
        Group g;
        try {
            g = reader.read();
        } catch (IOException | RuntimeException e) {
            throw new BadInputException(displayName, position, null, "cannot read the row: " + e.getMessage(), e);
        }
        if (g == null) {
            return null;
        }
        Object[] values = new Object[columns.size()];
        List<FieldError> errors = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            try {
                values[i] = index[i] < 0 || g.getFieldRepetitionCount(index[i]) == 0 ? null : value(g, i);
            } catch (BadInputException e) {
                errors.add(FieldError.of(columns.get(i).name(), rawText(g, i), e.reason()));
                continue;
            }
            if (values[i] == null && !columns.get(i).nullable()) {
                errors.add(FieldError.of(columns.get(i).name(), "", "NULL in a required column"));
            }
        }
        return new SourceRow(values, position++, errors);
    }

    private Object value(Group g, int i) {
        int field = index[i];
        PrimitiveType type = types[i];
        ColumnSpec column = columns.get(i);
        LogicalTypeAnnotation logical = type.getLogicalTypeAnnotation();
        if (logical instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation || column.type() == ColumnType.DECIMAL) {
            return decimal(g, i);
        }
        Object v = switch (type.getPrimitiveTypeName()) {
            case INT32 -> logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation
                    ? LocalDate.ofEpochDay(g.getInteger(field, 0)) : (Object) g.getInteger(field, 0);
            case INT64 -> logical instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation ts
                    ? ParquetTimestamps.toLocalDateTime(g.getLong(field, 0), ts) : (Object) g.getLong(field, 0);
            case FLOAT -> (double) g.getFloat(field, 0);
            case DOUBLE -> g.getDouble(field, 0);
            case BOOLEAN -> g.getBoolean(field, 0);
            case BINARY, FIXED_LEN_BYTE_ARRAY -> g.getString(field, 0);
            default -> throw new BadInputException(displayName, position, column.name(),
                    "Parquet type " + type.getPrimitiveTypeName() + " is not supported");
        };
        return conform(v, column);
    }

    /**
     * A DECIMAL (or plain integer) value fitted to the contract column's {@code decimal(p,s)}.
     *
     * @throws BadInputException when the column is not a decimal (the schema check refuses that
     *     before any row is read), the Parquet type holds no exact decimal, or the value does not fit
     */
    private BigDecimal decimal(Group g, int i) {
        ColumnSpec column = columns.get(i);
        BigDecimal exact = exactDecimal(g, i);
        if (exact == null || column.decimal() == null) {
            throw new BadInputException(displayName, position, column.name(), "Parquet " + types[i] + " cannot be read as "
                    + column.typeId());
        }
        try {
            return column.decimal().fit(exact);
        } catch (ArithmeticException e) {
            throw new BadInputException(displayName, position, column.name(), exact.toPlainString() + " does not fit "
                    + column.typeId() + ": " + e.getMessage());
        }
    }

    /** The exact value of a DECIMAL or plain INT32/INT64 field, or null for any other Parquet type. */
    private @Nullable BigDecimal exactDecimal(Group g, int i) {
        int field = index[i];
        PrimitiveType type = types[i];
        LogicalTypeAnnotation l = type.getLogicalTypeAnnotation();
        boolean isDecimal = l instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
        int scale = isDecimal ? ((LogicalTypeAnnotation.DecimalLogicalTypeAnnotation) l).getScale() : 0;
        boolean exactInteger = isDecimal || l == null || l instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation n && n.isSigned();
        return switch (type.getPrimitiveTypeName()) {
            case INT32 -> exactInteger ? BigDecimal.valueOf(g.getInteger(field, 0), scale) : null;
            case INT64 -> exactInteger ? BigDecimal.valueOf(g.getLong(field, 0), scale) : null;
            case BINARY, FIXED_LEN_BYTE_ARRAY -> isDecimal ? twosComplement(g.getBinary(field, 0).getBytes(), scale, i) : null;
            default -> null;
        };
    }

    private BigDecimal twosComplement(byte[] bytes, int scale, int i) {
        if (bytes.length == 0) {
            throw new BadInputException(displayName, position, columns.get(i).name(), "a DECIMAL of no bytes");
        }
        return new BigDecimal(new BigInteger(bytes), scale);
    }

    /** A field's value as text for {@code _parse_errors}: a decimal as its exact number, anything else as Parquet prints it. */
    private String rawText(Group g, int i) {
        try {
            BigDecimal d = types[i].getLogicalTypeAnnotation() instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation
                    ? exactDecimal(g, i) : null;
            if (d != null) {
                return d.toPlainString();
            }
            // a timestamp as its ISO text, every digit (Parquet prints the raw count of units)
            return types[i].getLogicalTypeAnnotation() instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation ts
                    ? ParquetTimestamps.toLocalDateTime(g.getLong(index[i], 0), ts).toString()
                    : String.valueOf(g.getValueToString(index[i], 0));
        } catch (BadInputException e) {
            return "";
        }
    }

    private Object conform(Object v, ColumnSpec column) {
        return switch (column.type()) {
            case LONG -> v instanceof Integer n ? (Object) n.longValue() : expect(v, Long.class, column);
            case DOUBLE -> expect(v, Double.class, column);
            case FLOAT -> v instanceof Double d ? (Object) d.floatValue() : expect(v, Float.class, column);
            case INT -> expect(v, Integer.class, column);
            case STRING -> noNul((String) expect(v, String.class, column), column);
            case BOOLEAN -> expect(v, Boolean.class, column);
            case DATE -> expect(v, LocalDate.class, column);
            case TIMESTAMP -> microseconds((LocalDateTime) expect(v, LocalDateTime.class, column), column);
            case DECIMAL -> throw new IllegalStateException("decimals are read by decimal()");
        };
    }

    /** A timestamp with a nanosecond digit is refused ({@link TextValues#subMicrosecondReason}), never cut. */
    private LocalDateTime microseconds(LocalDateTime t, ColumnSpec column) {
        String loss = TextValues.subMicrosecondReason(t);
        if (loss != null) {
            throw new BadInputException(displayName, position, column.name(), t + " " + loss);
        }
        return t;
    }

    /** A NUL character is refused, as in the CSV and JSON readers: PostgreSQL cannot store it in text. */
    private String noNul(String s, ColumnSpec column) {
        if (s.indexOf('\0') >= 0) {
            throw new BadInputException(displayName, position, column.name(), "holds a NUL character");
        }
        return s;
    }

    private Object expect(Object v, Class<?> type, ColumnSpec column) {
        if (!type.isInstance(v)) {
            throw new BadInputException(displayName, position, column.name(),
                    "a " + v.getClass().getSimpleName() + " value cannot be read as " + column.typeId());
        }
        return v;
    }

    @Override
    public void close() {
        try {
            reader.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
