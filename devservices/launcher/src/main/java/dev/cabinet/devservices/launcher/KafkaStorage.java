package dev.cabinet.devservices.launcher;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Properties;
import java.util.function.Consumer;

import org.apache.kafka.common.Uuid;

/**
 * A new broker's KRaft log directory, formatted without a storage-tool JVM of its own on every start. The tool writes
 * two files: {@code bootstrap.checkpoint}, the release's feature levels, which depend on the Kafka jars alone, and
 * {@code meta.properties}, which names the cluster, the node and the directory. The first is made once per classpath
 * in the per-user cache and copied; the second is written with fresh ids, as the tool would. The tool's JVM took 5 s of
 * dev mode's start beside the augmentation on two cores (docs/dev-services.md).
 */
final class KafkaStorage {

    static final String BOOTSTRAP = "bootstrap.checkpoint";
    static final String META = "meta.properties";

    private KafkaStorage() {
    }

    /**
     * Formats {@code dataDir} for node {@code nodeId}. {@code format} runs the storage tool into the directory it is
     * given (with any cluster id); it runs once per classpath, or on every call when the classpath holds a directory,
     * whose classes may change under the same name.
     */
    static void format(Path dataDir, int nodeId, String classpath, Path cache, Consumer<Path> format) {
        try {
            Files.createDirectories(dataDir);
            if (!UserCache.keepsFor(classpath)) {
                format.accept(dataDir);
                return;
            }
            Path made = cache.resolve(UserCache.entry("kafka-bootstrap", classpath.getBytes(StandardCharsets.UTF_8))
                    + ".checkpoint");
            if (!Files.isRegularFile(made)) {
                make(made, format);
            }
            Files.copy(made, dataDir.resolve(BOOTSTRAP));
            writeMeta(dataDir.resolve(META), nodeId);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs the tool into a directory of its own and moves its checkpoint into place whole. */
    private static void make(Path made, Consumer<Path> format) throws IOException {
        Files.createDirectories(made.getParent());
        Path scratch = Files.createTempDirectory(made.getParent(), "kafka-format");
        try {
            Path data = scratch.resolve("data");
            Files.createDirectories(data);
            format.accept(data);
            Path checkpoint = data.resolve(BOOTSTRAP);
            if (!Files.isRegularFile(checkpoint)) {
                throw new IllegalStateException("Kafka's storage tool wrote no " + BOOTSTRAP + " into " + data);
            }
            // Whole or not at all; a concurrent start's may already be there: the same release's feature levels.
            Files.move(checkpoint, made, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            delete(scratch);
        }
    }

    /** The properties the storage tool writes for a single-directory node (Kafka's MetaProperties, version 1). */
    private static void writeMeta(Path file, int nodeId) throws IOException {
        Properties meta = new Properties();
        meta.setProperty("version", "1");
        meta.setProperty("node.id", Integer.toString(nodeId));
        meta.setProperty("cluster.id", Uuid.randomUuid().toString());
        meta.setProperty("directory.id", Uuid.randomUuid().toString());
        try (OutputStream out = Files.newOutputStream(file)) {
            meta.store(out, null);
        }
    }

    private static void delete(Path dir) throws IOException {
        try (var paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
