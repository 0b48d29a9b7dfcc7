package dev.sluice.batch.testkit;

import dev.sluice.config.TableSpec;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * A lakehouse table's rows as one comparable value: {@code <rows>:<SHA-256>} of its declared
 * columns, each row as JSON, the rows sorted, so two loads compare equal exactly when they hold
 * the same rows. Read through Spark SQL (any catalog the session has).
 */
public final class TableChecksum {

    private TableChecksum() {
    }

    /**
     * @param table the table's spec (its name and declared columns)
     * @param where a filter such as {@code _sluice_partition = '2001-01-02'}, or null for every row
     */
    public static String of(SparkSession spark, TableSpec table, String where) {
        String cols = table.columns().stream().map(c -> "`" + c.name() + "`").collect(Collectors.joining(", "));
        Row r = spark.sql("SELECT COUNT(*), sha2(concat_ws('|', sort_array(collect_list(to_json(struct(" + cols + "))))), 256)"
                + " FROM " + table.table().qualifiedName() + (where == null ? "" : " WHERE " + where)).first();
        return r.getLong(0) + ":" + r.getString(1);
    }
}
