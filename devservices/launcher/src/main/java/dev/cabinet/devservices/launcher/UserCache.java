package dev.cabinet.devservices.launcher;

import java.io.File;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;

/** The per-user cache folder of the Dev Services' tools, whose entries are named after what they were made from. */
public final class UserCache {

    /** {@code ~/.cache/cabinet}. */
    public static final Path FOLDER = Path.of(System.getProperty("user.home"), ".cache", "cabinet");

    private UserCache() {
    }

    /**
     * Whether what a JVM with this classpath made may be kept under the classpath's name: only jars, whose contents do
     * not change under the same name (a directory of classes may).
     */
    public static boolean keepsFor(String classpath) {
        return Arrays.stream(classpath.split(File.pathSeparator)).allMatch(entry -> entry.endsWith(".jar"));
    }

    /** {@code <name>-<the first 16 hex digits of the SHA-256 of source>}: a new source gets a new entry. */
    public static String entry(String name, byte[] source) {
        try {
            return name + "-" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(source))
                    .substring(0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
