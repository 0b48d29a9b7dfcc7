package dev.sluice.batch.bronze;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The files of a landing path and how they are named. A landing path is a file, or a directory
 * whose regular files are read in name order, skipping hidden ({@code .x}) and marker ({@code _x})
 * files. Stateless.
 */
public final class LandingFiles {

    private LandingFiles() {
    }

    /** The files of {@code path}: itself, a directory's files by name, or none when it does not exist. */
    public static List<Path> list(Path path) throws IOException {
        if (Files.isRegularFile(path)) {
            return List.of(path);
        }
        if (!Files.isDirectory(path)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(path)) {
            return s.filter(Files::isRegularFile)
                    .filter(p -> !p.getFileName().toString().startsWith("."))
                    .filter(p -> !p.getFileName().toString().startsWith("_"))
                    .sorted().toList();
        }
    }

    /**
     * Why a landed file could not be read, for people: a text file that is not UTF-8 says so
     * (Java's own message is "Input length = 1"); otherwise the exception's first line.
     */
    public static String reason(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof CharacterCodingException) {
                return "not UTF-8 text (a byte sequence that is not valid UTF-8)";
            }
        }
        String m = e.getMessage();
        return m == null ? e.getClass().getSimpleName() : m.lines().findFirst().orElse("");
    }

    /** How a file is named in {@code _source}, drift events and messages: relative to the Sluice home when under it. */
    public static String display(Path home, Path file) {
        Path abs = file.toAbsolutePath().normalize();
        Path h = home.toAbsolutePath().normalize();
        return abs.startsWith(h) ? h.relativize(abs).toString() : abs.toString();
    }
}
