package dev.sluice.batch.contract;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.batch.bronze.CsvFile;
import dev.sluice.batch.bronze.LandingFiles;
import dev.sluice.config.ColumnType;
import dev.sluice.config.DecimalSpec;
import dev.sluice.config.SchemaDiff.FileColumn;
import dev.sluice.config.SourceFormat;
import dev.sluice.config.SourceSpec;
import dev.sluice.core.BadInputException;
import dev.sluice.formats.LocalParquetFile;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;
import org.jspecify.annotations.Nullable;

/**
 * The columns a landed file declares, without reading its rows: a Parquet footer's schema (with
 * types), a CSV header in the source's dialect (names only, in lower case; a leading byte-order
 * mark and quotes are not part of a name), the records of a JSON source, every one of them (names
 * found by the contract's JSON pointers, see {@link JsonKeys}). Stateless.
 */
public final class FileSchemas {

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    private FileSchemas() {
    }

    /**
     * @throws BadInputException naming the file when it is not readable as {@code format}
     */
    public static List<FileColumn> read(SourceSpec source, Path file, String displayName) {
        try {
            return switch (source.format()) {
                case PARQUET -> parquet(file);
                case CSV -> csv(source, file, displayName);
                case JSON, NDJSON -> json(source, file);
            };
        } catch (BadInputException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw new BadInputException(displayName, -1, null, "cannot read the " + source.format().id() + " schema: "
                    + LandingFiles.reason(e), e);
        }
    }

    /**
     * JSON has no declared schema: every record counts (a key that first appears in the last
     * record is as much a column as one of the first). A contract column is present when its JSON
     * pointer finds a value in some record; a top-level key that no contract column's pointer
     * starts with, in any record, is an added column (in the order first seen). Types are not
     * declared (values are checked per row). A line that is not JSON, or a record that is not an
     * object, has no columns here: the reader quarantines it. A file without any object record
     * is judged as holding every contract column (its rows are quarantined one by one).
     *
     * <p>NDJSON is read line by line: a line is parsed as a tree while some contract column has
     * not been found yet, afterwards only its top-level keys are scanned.
     */
    private static List<FileColumn> json(SourceSpec source, Path file) throws IOException {
        JsonKeys keys = new JsonKeys(source.contract().columns());
        if (source.format() == SourceFormat.NDJSON) {
            try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                boolean first = true;
                for (String line; (line = r.readLine()) != null; first = false) {
                    if (!line.isBlank()) {
                        keys.line(first && line.startsWith("\uFEFF") ? line.substring(1) : line);
                    }
                }
            }
        } else {
            JsonNode root = JSON.readTree(file.toFile());
            JsonNode array = root == null ? null : source.arrayPath().isEmpty() ? root : root.at(source.arrayPath());
            if (array == null || !array.isArray()) {
                throw new IOException("no JSON array at " + (source.arrayPath().isEmpty() ? "the top of the document" : source.arrayPath()));
            }
            array.forEach(keys::record);
        }
        return keys.columns();
    }

    private static List<FileColumn> parquet(Path file) throws IOException {
        MessageType schema;
        try (ParquetFileReader r = ParquetFileReader.open(new LocalParquetFile(file))) {
            schema = r.getFileMetaData().getSchema();
        }
        List<FileColumn> columns = new ArrayList<>();
        for (Type t : schema.getFields()) {
            ColumnType type = t.isPrimitive() ? type(t.asPrimitiveType()) : null;
            DecimalSpec decimal = type == ColumnType.DECIMAL ? decimal(t.asPrimitiveType()) : null;
            if (type == ColumnType.DECIMAL && decimal == null) {
                type = null;
            }
            columns.add(new FileColumn(t.getName(), type, decimal, type == null ? t.toString() : null));
        }
        return columns;
    }

    /** The precision and scale of a DECIMAL column, or null when the file declares an impossible one. */
    private static @Nullable DecimalSpec decimal(PrimitiveType p) {
        var d = (LogicalTypeAnnotation.DecimalLogicalTypeAnnotation) p.getLogicalTypeAnnotation();
        try {
            return new DecimalSpec(d.getPrecision(), d.getScale());
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The logical type of a Parquet column, or null when Sluice has none for it. */
    static @Nullable ColumnType type(PrimitiveType p) {
        LogicalTypeAnnotation l = p.getLogicalTypeAnnotation();
        if (l instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation) {
            // LogicalTypes.md "DECIMAL": the unscaled value in INT32, INT64, FIXED_LEN_BYTE_ARRAY or BINARY
            return switch (p.getPrimitiveTypeName()) {
                case INT32, INT64, FIXED_LEN_BYTE_ARRAY, BINARY -> ColumnType.DECIMAL;
                default -> null;
            };
        }
        boolean signedIntOrNone = l == null
                || l instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation i && i.isSigned();
        return switch (p.getPrimitiveTypeName()) {
            case INT32 -> l instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation ? ColumnType.DATE
                    : signedIntOrNone ? ColumnType.INT : null;
            case INT64 -> l instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation ? ColumnType.TIMESTAMP
                    : signedIntOrNone ? ColumnType.LONG : null;
            case FLOAT -> ColumnType.FLOAT;
            case DOUBLE -> ColumnType.DOUBLE;
            case BOOLEAN -> ColumnType.BOOLEAN;
            case BINARY, FIXED_LEN_BYTE_ARRAY -> l instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
                    || l instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation ? ColumnType.STRING : null;
            default -> null;
        };
    }

    /**
     * The header of a CSV file in its source's dialect, names in lower case (they are matched
     * ignoring case, see {@link CsvFile}), after the whole file is parsed once: a file that cannot
     * be parsed to its end is refused here, before any write ({@link CsvFile#readToEnd()}).
     */
    private static List<FileColumn> csv(SourceSpec source, Path file, String displayName) {
        try (CsvFile csv = CsvFile.open(file, source.csv(), displayName)) {
            csv.readToEnd();
            return csv.names().stream().map(n -> new FileColumn(n, null)).toList();
        }
    }
}
