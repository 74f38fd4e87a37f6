package dev.cabinet.devservices.launcher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.UUID;

import org.jboss.logging.Logger;

/**
 * A class data sharing archive for a child JVM (the broker), kept in the per-user cache folder under a name made of
 * everything it depends on (the JDK, the classpath, the JVM options): the first start writes it when the JVM exits
 * ({@code -XX:ArchiveClassesAtExit}, JDK 13+), later starts load their classes from it and need about half the CPU
 * to be ready (the broker: 1.0 s instead of 1.7 s on an idle core; more when it starts beside an augmentation). The
 * JVM checks the archive itself and ignores one that does not match it.
 */
final class ClassArchive {

    private static final Logger LOG = Logger.getLogger(ClassArchive.class);

    /** The archive's place in the cache; null: this JVM gets none. */
    private final Path archive;
    /** Where this JVM's first run writes the archive, moved into place once it exited; null when it already exists. */
    private final Path writing;

    private ClassArchive(Path archive, Path writing) {
        this.archive = archive;
        this.writing = writing;
    }

    /** The archive of a JVM run with {@code java}, these options and this classpath. */
    static ClassArchive of(String name, Path java, List<String> jvmOptions, String classpath) {
        return of(name, java, jvmOptions, classpath, UserCache.FOLDER);
    }

    static ClassArchive of(String name, Path java, List<String> jvmOptions, String classpath, Path cache) {
        if (!UserCache.keepsFor(classpath)) {
            return none();   // the JVM refuses to start with an archive and a directory on its classpath
        }
        String key = String.join("\n", java.toString(), System.getProperty("java.vm.version"),
                String.join(" ", jvmOptions), classpath);
        Path archive = cache.resolve(UserCache.entry(name, key.getBytes(StandardCharsets.UTF_8)) + ".jsa");
        if (Files.isRegularFile(archive)) {
            return new ClassArchive(archive, null);
        }
        try {
            Files.createDirectories(cache);
        } catch (IOException e) {
            LOG.debugf(e, "no class archive for %s: cannot create %s", name, cache);
            return none();
        }
        return new ClassArchive(archive, cache.resolve(archive.getFileName() + "." + UUID.randomUUID() + ".tmp"));
    }

    private static ClassArchive none() {
        return new ClassArchive(null, null);
    }

    /** The JVM options that use the archive, or write it as the JVM exits. */
    List<String> options() {
        if (archive == null) {
            return List.of();
        }
        return List.of(writing != null ? "-XX:ArchiveClassesAtExit=" + writing : "-XX:SharedArchiveFile=" + archive);
    }

    /** Once the JVM has exited: the archive it wrote goes into place whole (a concurrent writer's may already be). */
    void keep() {
        if (writing == null || !Files.isRegularFile(writing)) {
            return;
        }
        try {
            Files.move(writing, archive, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            LOG.debugf(e, "the class archive %s is kept by another JVM", archive);
        } finally {
            try {
                Files.deleteIfExists(writing);
            } catch (IOException e) {
                LOG.debugf(e, "could not remove %s", writing);
            }
        }
    }
}
