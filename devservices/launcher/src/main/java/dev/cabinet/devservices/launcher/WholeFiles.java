package dev.cabinet.devservices.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Files written whole: another JVM of this checkout or user reading one at that moment sees it all or not at all. */
public final class WholeFiles {

    private WholeFiles() {
    }

    public static void write(Path file, byte[] content) throws IOException {
        Files.createDirectories(file.getParent());
        Path written = Files.createTempFile(file.getParent(), file.getFileName().toString(), ".tmp");
        try {
            Files.write(written, content);
            Files.move(written, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(written);
        }
    }
}
