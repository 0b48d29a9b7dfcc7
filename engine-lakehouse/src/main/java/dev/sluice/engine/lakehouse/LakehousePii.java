package dev.sluice.engine.lakehouse;

import dev.sluice.config.ColumnSpec;
import dev.sluice.config.PiiKeys;
import dev.sluice.config.PiiPolicy;
import dev.sluice.config.SourceSpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;

/**
 * A Bronze input's kept rows as a lakehouse Silver SELECT sees them through {@code {input}}: the
 * source's PII columns replaced by their policy ({@link PiiPolicy}), in place and under their own
 * name; {@code drop} columns left out; metadata and columns Bronze gained by drift as they are. The
 * warehouse engine's {@code PiiProjection} is the same rule in the database's SQL; both give the
 * same values for string columns.
 *
 * <p>{@code hash} is {@code javax.crypto.Mac("HmacSHA256")} (RFC 2104) over the UTF-8 bytes of the
 * value's text (Spark's cast to string), run in a Spark UDF named {@value #HASH_UDF}: the key
 * travels to the executors inside the UDF's serialized closure, never in SQL text or a plan (Spark
 * shows the UDF by name), and is never logged. The result is {@code <key version>:<64 lower-case hex
 * digits>}. {@code mask}: each digit becomes {@code 9}, each other character except space and
 * {@code . , ; : & / # ( ) ' -} becomes {@code x}. NULL stays NULL under every policy. Stateless
 * and thread-safe.
 */
final class LakehousePii {

    /** The name Spark shows for the hash UDF in plans. */
    static final String HASH_UDF = "sluice_pii_hmac";

    private LakehousePii() {
    }

    /** True when some column of {@code source} is not passed on as is. */
    static boolean transforms(SourceSpec source) {
        return source.pii().values().stream().anyMatch(p -> p != PiiPolicy.KEEP);
    }

    /**
     * {@code rows} with {@code source}'s PII policies applied to its contract columns.
     *
     * @throws IllegalStateException when a column is hashed and the spec has no active key
     *     (validation refuses such a spec before a run)
     */
    static Dataset<Row> apply(Dataset<Row> rows, SourceSpec source, PiiKeys keys) {
        Dataset<Row> out = rows;
        UserDefinedFunction hash = null;
        for (ColumnSpec c : source.contract().columns()) {
            switch (source.policy(c.name())) {
                case KEEP -> { }
                case DROP -> out = out.drop(c.name());
                case MASK -> out = out.withColumn(c.name(), mask(functions.col(c.name()).cast(DataTypes.StringType)));
                case HASH -> {
                    if (hash == null) {
                        hash = hashUdf(keys);
                    }
                    out = out.withColumn(c.name(), hash.apply(functions.col(c.name()).cast(DataTypes.StringType)));
                }
            }
        }
        return out;
    }

    private static Column mask(Column text) {
        return functions.regexp_replace(functions.regexp_replace(text, "[0-9]", "9"), "[^9 .,;:&/#()'-]", "x");
    }

    private static UserDefinedFunction hashUdf(PiiKeys keys) {
        return functions.udf(new Hmac(keys.activeKey(), keys.activeVersion().orElseThrow() + ":"), DataTypes.StringType)
                .withName(HASH_UDF);
    }

    /** The keyed token of one value; serialized to the executors with its key. */
    private static final class Hmac implements UDF1<String, String> {
        private static final long serialVersionUID = 1L;
        private final byte[] key;
        private final String prefix;
        /** One Mac per thread, not per row ({@code doFinal} resets it); rebuilt after deserialization. */
        private transient ThreadLocal<Mac> macs;

        Hmac(byte[] key, String prefix) {
            this.key = key;
            this.prefix = prefix;
        }

        @Override
        public String call(String value) throws GeneralSecurityException {
            if (value == null) {
                return null;
            }
            ThreadLocal<Mac> local = macs;
            if (local == null) {
                local = new ThreadLocal<>();
                macs = local; // a racing thread may make its own: each keeps a Mac of its own either way
            }
            Mac mac = local.get();
            if (mac == null) {
                mac = Mac.getInstance("HmacSHA256");
                mac.init(new SecretKeySpec(key, "HmacSHA256"));
                local.set(mac);
            }
            return prefix + HexFormat.of().formatHex(mac.doFinal(value.getBytes(StandardCharsets.UTF_8)));
        }

        @Override
        public String toString() {
            return HASH_UDF + "[key hidden]";
        }
    }
}
