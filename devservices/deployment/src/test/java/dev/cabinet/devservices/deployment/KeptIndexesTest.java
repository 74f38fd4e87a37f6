package dev.cabinet.devservices.deployment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.jboss.jandex.ClassInfo;
import org.jboss.jandex.DotName;
import org.jboss.jandex.Index;
import org.jboss.jandex.IndexWriter;
import org.jboss.jandex.Indexer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.quarkus.deployment.builditem.LiveReloadBuildItem;

class KeptIndexesTest {

    @TempDir
    Path folder;

    @TempDir
    Path jars;

    @Test
    void theStepPutsItsMapWhereQuarkusLooksForItsIndexCache() throws Exception {
        LiveReloadBuildItem liveReload = new LiveReloadBuildItem();

        assertTrue(KeptIndexesProcessor.install(liveReload, folder));

        Class<?> type = Class.forName(KeptIndexesProcessor.INDEX_CACHE);
        Object cache = liveReload.getContextObject(type);
        Field map = type.getDeclaredField("cache");
        map.setAccessible(true);
        assertInstanceOf(KeptIndexes.class, map.get(cache));
        assertFalse(KeptIndexesProcessor.install(liveReload, folder), "a live reload keeps the cache of its start");
        assertEquals(cache, liveReload.getContextObject(type));
    }

    @Test
    void anIndexComputedOnceIsReadByTheNextJvm() throws Exception {
        Path jar = jar("a.jar", false, KeptIndexesTest.class, KeptIndexes.class);
        Index computed = index(KeptIndexesTest.class, KeptIndexes.class);
        KeptIndexes first = new KeptIndexes(folder);
        assertNull(first.get(jar));
        first.put(jar, computed);
        first.finishWriting();

        Index read = new KeptIndexes(folder).get(jar);

        assertNotNull(read);
        assertEquals(names(computed), names(read));
        assertEquals(Set.of(DotName.createSimple(KeptIndexesTest.class)), read.getAnnotations(Test.class).stream()
                .map(annotation -> annotation.target().asMethod().declaringClass().name()).collect(Collectors.toSet()));
    }

    @Test
    void aJarAnExtensionAsksToIndexIsIndexedOnce() throws Exception {
        Path jar = jar("asked.jar", false, KeptIndexesTest.class);
        AtomicInteger indexings = new AtomicInteger();
        Function<Path, Index> indexing = path -> {
            indexings.incrementAndGet();
            return index(KeptIndexesTest.class);
        };
        KeptIndexes first = new KeptIndexes(folder);
        Index computed = first.computeIfAbsent(jar, indexing);
        assertEquals(computed, first.computeIfAbsent(jar, indexing));
        first.finishWriting();

        Index read = new KeptIndexes(folder).computeIfAbsent(jar, indexing);

        assertEquals(1, indexings.get(), "indexed by the first JVM only");
        assertEquals(names(computed), names(read));
    }

    @Test
    void aChangedJarIsIndexedAgain() throws Exception {
        Path jar = jar("a.jar", false, KeptIndexesTest.class);
        KeptIndexes first = new KeptIndexes(folder);
        first.put(jar, index(KeptIndexesTest.class));
        first.finishWriting();

        jar("a.jar", false, KeptIndexes.class);
        Files.setLastModifiedTime(jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 60_000));

        assertNull(new KeptIndexes(folder).get(jar));
    }

    @Test
    void aJarThatCarriesItsIndexIsNotKept() throws Exception {
        Path jar = jar("indexed.jar", true, KeptIndexesTest.class);
        KeptIndexes first = new KeptIndexes(folder);
        first.put(jar, index(KeptIndexesTest.class));
        first.finishWriting();

        assertEquals(List.of(), files());
        assertNull(new KeptIndexes(folder).get(jar));
    }

    @Test
    void aKeptIndexThatCannotBeReadIsDeletedAndTheJarIndexedAgain() throws Exception {
        Path jar = jar("a.jar", false, KeptIndexesTest.class);
        KeptIndexes first = new KeptIndexes(folder);
        first.put(jar, index(KeptIndexesTest.class));
        first.finishWriting();
        Path kept = files().get(0);
        Files.write(kept, new byte[] { 1, 2, 3 });

        assertNull(new KeptIndexes(folder).get(jar));
        assertFalse(Files.exists(kept));
    }

    @Test
    void anIndexNoStartReadForAMonthIsForgottenAndOneReadIsKept() throws Exception {
        Path unused = jar("unused.jar", false, KeptIndexesTest.class);
        Path used = jar("used.jar", false, KeptIndexes.class);
        KeptIndexes first = new KeptIndexes(folder);
        first.put(unused, index(KeptIndexesTest.class));
        first.put(used, index(KeptIndexes.class));
        first.finishWriting();
        FileTime longAgo = FileTime.from(Instant.now().minus(KeptIndexes.UNUSED).minus(Duration.ofDays(1)));
        for (Path kept : files()) {
            Files.setLastModifiedTime(kept, longAgo);
        }
        KeptIndexes reading = new KeptIndexes(folder);
        assertNotNull(reading.get(used));
        reading.finishWriting();

        KeptIndexes next = new KeptIndexes(folder);
        next.forgetUnused();

        assertEquals(1, files().size(), "the file read stays: " + files());
        assertNotNull(new KeptIndexes(folder).get(used));
        assertNull(new KeptIndexes(folder).get(unused));
    }

    @Test
    void directoriesOfClassesAreNeverKept() throws Exception {
        KeptIndexes first = new KeptIndexes(folder);
        first.put(jars, index(KeptIndexesTest.class));
        first.finishWriting();

        assertEquals(List.of(), files());
    }

    private Path jar(String name, boolean withItsIndex, Class<?>... classes) throws IOException {
        Path jar = jars.resolve(name);
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            for (Class<?> type : classes) {
                out.putNextEntry(new JarEntry(type.getName().replace('.', '/') + ".class"));
                try (InputStream in = bytecode(type)) {
                    in.transferTo(out);
                }
            }
            if (withItsIndex) {
                out.putNextEntry(new JarEntry("META-INF/jandex.idx"));
                writeIndex(out, classes);
            }
        }
        return jar;
    }

    private static void writeIndex(OutputStream out, Class<?>... classes) throws IOException {
        new IndexWriter(out).write(index(classes));
    }

    private static Index index(Class<?>... classes) {
        Indexer indexer = new Indexer();
        for (Class<?> type : classes) {
            try (InputStream in = bytecode(type)) {
                indexer.index(in);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return indexer.complete();
    }

    private static InputStream bytecode(Class<?> type) {
        return type.getResourceAsStream("/" + type.getName().replace('.', '/') + ".class");
    }

    private static Set<DotName> names(Index index) {
        return index.getKnownClasses().stream().map(ClassInfo::name).collect(Collectors.toSet());
    }

    private List<Path> files() throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.toList();
        }
    }
}
