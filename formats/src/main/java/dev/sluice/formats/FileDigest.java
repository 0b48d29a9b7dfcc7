package dev.sluice.formats;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Digests of whole files. Stateless and thread-safe. */
public final class FileDigest {

    private static final HexFormat HEX = HexFormat.of();

    private FileDigest() {
    }

    /**
     * SHA-256 of a file's bytes, read in 64 KiB blocks.
     *
     * @return 64 lower-case hex digits
     * @throws IOException when the file cannot be read
     */
    public static String sha256(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) > 0; ) {
                d.update(buf, 0, n);
            }
            return HEX.formatHex(d.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}
