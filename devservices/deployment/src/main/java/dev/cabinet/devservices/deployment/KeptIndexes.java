package dev.cabinet.devservices.deployment;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.CodeSource;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

import org.jboss.jandex.Index;
import org.jboss.jandex.IndexReader;
import org.jboss.jandex.IndexWriter;
import org.jboss.logging.Logger;

import dev.cabinet.devservices.launcher.UserCache;
import dev.cabinet.devservices.launcher.WholeFiles;

/**
 * The Jandex indexes of dependency jars, kept on disk across JVMs: before Quarkus's archive step, the kept index of each
 * jar is read into Quarkus's index cache ({@link #readInto}); after it, each index Quarkus had to compute is written to a
 * file ({@link #keepLater}; a jar that carries {@code META-INF/jandex.idx} is read quickly anyway and is not kept). A
 * file is named after the jar's path, size and time and the Jandex that wrote it: a changed jar, or another Jandex, is
 * indexed again. Files are written on a thread of their own, off the build's path; one that cannot be read is deleted
 * and indexed again, and one no start has read for a month is deleted.
 */
final class KeptIndexes {

    private static final Logger LOG = Logger.getLogger(KeptIndexes.class);
    /** How long a kept index no start reads stays: a month. */
    static final Duration UNUSED = Duration.ofDays(30);

    private final Path folder;
    /** One thread, which ends when it has had nothing to write for a few seconds (a JVM may augment several times). */
    private final ExecutorService writer = new ThreadPoolExecutor(0, 1, 5, TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(), task -> {
                Thread thread = new Thread(task, "cabinet-kept-indexes");
                thread.setDaemon(true);
                return thread;
            });

    KeptIndexes(Path folder) {
        this.folder = folder;
    }

    /** {@code ~/.cache/cabinet/jandex}, beside the servers' kept classpaths and class archives. */
    static Path defaultFolder() {
        return UserCache.FOLDER.resolve("jandex");
    }

    /** Puts the kept index of each of these jars that has one into {@code indexes}; answers how many. */
    int readInto(Map<Path, Index> indexes, Iterable<Path> jars) {
        int read = 0;
        for (Path jar : jars) {
            if (!indexes.containsKey(jar) && keepable(jar)) {
                Index kept = read(jar);
                if (kept != null) {
                    indexes.put(jar, kept);
                    read++;
                }
            }
        }
        return read;
    }

    /** Writes, on the writer's thread, the index of each jar that is not kept yet; {@code indexes} is not read again. */
    void keepLater(Map<Path, Index> indexes) {
        Map<Path, Index> jars = Map.copyOf(indexes);
        later(() -> jars.forEach((jar, index) -> {
            if (keepable(jar)) {
                keep(jar, index);
            }
        }));
    }

    /** Writes the files still to be written and takes no more (tests). */
    void finishWriting() throws InterruptedException {
        writer.shutdown();
        writer.awaitTermination(1, TimeUnit.MINUTES);
    }

    /** Only jar files, by the user cache's one rule (a directory of classes changes under the same name). */
    private static boolean keepable(Path jar) {
        return UserCache.keepsFor(jar.toString()) && Files.isRegularFile(jar);
    }

    /** Runs the work on the writer's thread, off the build's path; not at all once the writer was shut down (tests). */
    private void later(Runnable work) {
        try {
            writer.execute(work);
        } catch (RejectedExecutionException e) {
            LOG.debugf("Kept indexes: the writer was shut down");
        }
    }

    private Index read(Path jar) {
        Path file;
        try {
            file = fileFor(jar);
        } catch (IOException e) {
            return null;
        }
        Index index;
        try (InputStream in = Files.newInputStream(file)) {
            index = new IndexReader(in).read();
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException | RuntimeException e) {
            LOG.debugf(e, "The kept index of %s could not be read; %s is indexed again", jar, jar.getFileName());
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // indexed again either way; the next write replaces it
            }
            return null;
        }
        later(() -> markUsed(file));
        return index;
    }

    /** A file's time says when it was last read, so that {@link #forgetUnused} keeps it. */
    private static void markUsed(Path file) {
        try {
            Files.setLastModifiedTime(file, FileTime.from(Instant.now()));
        } catch (IOException e) {
            LOG.debugf(e, "%s could not be marked as used", file);
        }
    }

    /** {@link #forgetUnused} after {@code delay}, once this start has read (and so marked) the files it needs. */
    void forgetUnusedAfter(Duration delay) {
        CompletableFuture.delayedExecutor(delay.toMillis(), TimeUnit.MILLISECONDS)
                .execute(() -> later(this::forgetUnused));
    }

    /**
     * Deletes the files no start has read for {@link #UNUSED}: those of jars since upgraded (every new version of the AWS
     * SDK would otherwise leave about 2.5 MB behind) or of another checkout.
     */
    void forgetUnused() {
        Instant before = Instant.now().minus(UNUSED);
        try (Stream<Path> files = Files.list(folder)) {
            for (Path file : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".idx"))::iterator) {
                if (Files.getLastModifiedTime(file).toInstant().isBefore(before)) {
                    Files.deleteIfExists(file);
                }
            }
        } catch (NoSuchFileException e) {
            // nothing kept yet
        } catch (IOException | RuntimeException e) {
            LOG.debugf(e, "Unused kept indexes in %s could not be deleted", folder);
        }
    }

    private void keep(Path jar, Index index) {
        try {
            Path file = fileFor(jar);
            if (Files.exists(file) || carriesItsIndex(jar)) {
                return;
            }
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            new IndexWriter(bytes).write(index);
            WholeFiles.write(file, bytes.toByteArray());
        } catch (IOException | RuntimeException e) {
            LOG.debugf(e, "The index of %s is not kept", jar);
        }
    }

    private static boolean carriesItsIndex(Path jar) throws IOException {
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            return zip.getEntry("META-INF/jandex.idx") != null;
        }
    }

    private Path fileFor(Path jar) throws IOException {
        String source = jar.toAbsolutePath() + "\n" + Files.size(jar) + "\n" + Files.getLastModifiedTime(jar).toMillis()
                + "\n" + jandex();
        return folder.resolve(UserCache.entry(jar.getFileName().toString(), source.getBytes(StandardCharsets.UTF_8))
                + ".idx");
    }

    /** The Jandex that reads and writes the files: its jar, whose name carries its version. */
    private static String jandex() {
        CodeSource source = Index.class.getProtectionDomain().getCodeSource();
        return source == null ? "jandex" : String.valueOf(source.getLocation());
    }
}
