package dev.sluice.batch.testkit;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** The PII key the tests give the la_riots pipeline (real keys come from the environment), and its tokens. */
public final class PiiTestKey {

    /** A test key (48 bytes), as {@code SLUICE_PII_KEY_V1}. */
    public static final String KEY = "la-riots-test-key-0123456789abcdef0123456789abcd";

    private PiiTestKey() {
    }

    /** The token Sluice writes for {@code value} under {@link #KEY}: {@code v1:} and the HMAC-SHA256 in hex. */
    public static String hmac(String value) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(KEY.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return "v1:" + HexFormat.of().formatHex(mac.doFinal(value.getBytes(StandardCharsets.UTF_8)));
    }
}
