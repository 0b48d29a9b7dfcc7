package dev.sluice.engine.lakehouse;

import dev.sluice.engine.BronzeRedaction;
import dev.sluice.config.ColumnType;
import dev.sluice.config.TableSpec;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.apache.iceberg.catalog.Catalog;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * An erasure request's redaction in one lakehouse Bronze table: Spark SQL {@code UPDATE} of the
 * rows holding the typed value (the tables are copy-on-write, so the data files holding it are
 * rewritten), one {@code MERGE INTO} of the redacted {@code _parse_errors} texts, then every
 * snapshot but the current one expired, which deletes the files that held the value. Not
 * thread-safe; one per redaction.
 */
final class IcebergRedaction {

    private final SparkSession spark;
    private final Catalog catalog;
    private final TableSpec bronze;
    private final String table;

    IcebergRedaction(SparkSession spark, Catalog catalog, TableSpec bronze) {
        this.spark = spark;
        this.catalog = catalog;
        this.bronze = bronze;
        this.table = LakehouseNames.spark(bronze.table());
    }

    long redact(BronzeRedaction r, Set<String> partitions) {
        long rows = 0;
        if (r.typed() != null) {
            String holds = "`" + r.column() + "` = " + literal(r.typed());
            for (Row p : spark.sql("SELECT DISTINCT " + LakehouseNames.PARTITION + " FROM " + table + " WHERE " + holds).collectAsList()) {
                partitions.add(p.getString(0));
            }
            rows = spark.sql("SELECT COUNT(*) FROM " + table + " WHERE " + holds).first().getLong(0);
            if (rows > 0) {
                spark.sql("UPDATE " + table + " SET `" + r.column() + "` = "
                        + (r.type() == ColumnType.STRING ? LakehouseInput.quote(r.marker()) : "NULL") + " WHERE " + holds);
            }
        }
        List<Row> redacted = new ArrayList<>();
        for (Row e : spark.sql("SELECT _source, _source_pos, _run_id, " + LakehouseNames.PARTITION + ", _parse_errors FROM " + table
                + " WHERE contains(_parse_errors, " + LakehouseInput.quote(r.raw()) + ")").collectAsList()) {
            String after = r.parseErrors().apply(e.getString(4));
            if (!after.equals(e.getString(4))) {
                redacted.add(RowFactory.create(e.getString(0), e.getLong(1), e.getString(2), after));
                partitions.add(e.getString(3));
            }
        }
        if (!redacted.isEmpty()) {
            StructType schema = new StructType().add("_source", DataTypes.StringType).add("_source_pos", DataTypes.LongType)
                    .add("_run_id", DataTypes.StringType).add("_parse_errors", DataTypes.StringType);
            String view = "sluice_redacted_" + UUID.randomUUID().toString().replace("-", "");
            spark.createDataFrame(redacted, schema).createOrReplaceTempView(view);
            try {
                spark.sql("MERGE INTO " + table + " t USING " + view + " v ON t._source = v._source AND t._source_pos = v._source_pos"
                        + " AND t._run_id = v._run_id WHEN MATCHED THEN UPDATE SET t._parse_errors = v._parse_errors");
            } finally {
                spark.catalog().dropTempView(view);
            }
            rows += redacted.size();
        }
        if (rows > 0) {
            // every snapshot but the current one: their files still hold the value
            SnapshotExpiry.expire(spark, catalog.loadTable(LakehouseNames.iceberg(bronze.table())), table, Long.MAX_VALUE);
        }
        return rows;
    }

    /** A value of a contract type as a Spark SQL literal of that type. */
    private static String literal(Object v) {
        if (v instanceof String s) {
            return LakehouseInput.quote(s);
        }
        if (v instanceof LocalDate d) {
            return "DATE '" + d + "'";
        }
        if (v instanceof LocalDateTime t) {
            return "TIMESTAMP_NTZ '" + t + "'";
        }
        if (v instanceof BigDecimal d) {
            return "CAST('" + d.toPlainString() + "' AS DECIMAL(38," + Math.max(0, d.scale()) + "))";
        }
        if (v instanceof Double || v instanceof Float) {
            return "CAST('" + v + "' AS DOUBLE)";
        }
        return v.toString();
    }
}
