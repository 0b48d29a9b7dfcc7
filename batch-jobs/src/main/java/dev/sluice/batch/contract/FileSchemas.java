package dev.sluice.batch.contract;

import dev.sluice.batch.bronze.LandingFiles;
import dev.sluice.batch.bronze.LocalParquetFile;
import dev.sluice.config.ColumnType;
import dev.sluice.config.DecimalSpec;
import dev.sluice.config.SchemaDiff.FileColumn;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sluice.config.SourceFormat;
import dev.sluice.config.SourceSpec;
import dev.sluice.core.BadInputException;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;
import org.jspecify.annotations.Nullable;

/**
 * The columns a landed file declares, without reading its rows: a Parquet footer's schema (with
 * types), a CSV header (names only; a leading byte-order mark and quotes are not part of a name),
 * a JSON source's first record (names found by the contract's JSON pointers).
 * Stateless.
 */
public final class FileSchemas {

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(com.fasterxml.jackson.core.JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    private FileSchemas() {
    }

    /**
     * @throws BadInputException naming the file when it is not readable as {@code format}
     */
    public static List<FileColumn> read(SourceSpec source, Path file, String displayName) {
        try {
            return switch (source.format()) {
                case PARQUET -> parquet(file);
                case CSV -> csv(file);
                case JSON, NDJSON -> json(source, file);
            };
        } catch (IOException | RuntimeException e) {
            throw new BadInputException(displayName, -1, null, "cannot read the " + source.format().id() + " schema: "
                    + LandingFiles.reason(e), e);
        }
    }

    /**
     * JSON has no declared schema: the first record stands for the file. A contract column is
     * present when its JSON pointer finds a value; a top-level key that no contract column's
     * pointer starts with is an added column. Types are not declared (values are checked per row).
     */
    private static List<FileColumn> json(SourceSpec source, Path file) throws IOException {
        JsonNode first = null;
        if (source.format() == SourceFormat.NDJSON) {
            try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                for (String line; (line = r.readLine()) != null && first == null; ) {
                    if (!line.isBlank()) {
                        first = JSON.readTree(line.startsWith("\uFEFF") ? line.substring(1) : line);
                    }
                }
            }
        } else {
            JsonNode root = JSON.readTree(file.toFile());
            JsonNode array = root == null ? null : source.arrayPath().isEmpty() ? root : root.at(source.arrayPath());
            if (array == null || !array.isArray()) {
                throw new IOException("no JSON array at " + (source.arrayPath().isEmpty() ? "the top of the document" : source.arrayPath()));
            }
            first = array.isEmpty() ? null : array.get(0);
        }
        List<FileColumn> columns = new ArrayList<>();
        if (first == null || !first.isObject()) {
            source.contract().columns().forEach(c -> columns.add(new FileColumn(c.name(), null)));
            return columns;
        }
        java.util.Set<String> mappedKeys = new java.util.HashSet<>();
        for (var c : source.contract().columns()) {
            String[] segments = c.jsonPath().split("/");
            mappedKeys.add(segments.length > 1 ? segments[1] : "");
            if (!first.at(c.jsonPath()).isMissingNode()) {
                columns.add(new FileColumn(c.name(), null));
            }
        }
        for (var it = first.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!mappedKeys.contains(key)) {
                columns.add(new FileColumn(key, null));
            }
        }
        return columns;
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

    private static List<FileColumn> csv(Path file) throws IOException {
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            r.mark(1);
            if (r.read() != '\uFEFF') {
                r.reset();
            }
            try (CSVParser p = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true)
                    .setDuplicateHeaderMode(org.apache.commons.csv.DuplicateHeaderMode.DISALLOW).get().parse(r)) {
                return p.getHeaderNames().stream().map(n -> new FileColumn(n, null)).toList();
            }
        }
    }
}
