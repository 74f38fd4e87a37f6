package dev.cabinet.devservices.deployment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
    void theStepMakesQuarkusIndexCacheAndReadsItsMap() throws Exception {
        LiveReloadBuildItem liveReload = new LiveReloadBuildItem();

        Map<Path, Index> made = KeptIndexesProcessor.newIndexCache(liveReload).orElseThrow();

        Class<?> type = Class.forName(KeptIndexesProcessor.INDEX_CACHE);
        Object cache = liveReload.getContextObject(type);
        assertNotNull(cache, "Quarkus's archive step finds it in the live-reload context");
        Field map = type.getDeclaredField("cache");
        map.setAccessible(true);
        assertSame(map.get(cache), made);
        assertSame(made, KeptIndexesProcessor.indexCache(liveReload).orElseThrow());
        assertTrue(KeptIndexesProcessor.newIndexCache(liveReload).isEmpty(), "a live reload keeps the cache of its start");
        assertTrue(KeptIndexesProcessor.indexCache(new LiveReloadBuildItem()).isEmpty());
    }

    @Test
    void anIndexComputedOnceIsReadByTheNextJvm() throws Exception {
        Path jar = jar("a.jar", false, KeptIndexesTest.class, KeptIndexes.class);
        Index computed = index(KeptIndexesTest.class, KeptIndexes.class);
        KeptIndexes first = new KeptIndexes(folder);
        Map<Path, Index> firstCache = new HashMap<>();
        assertEquals(0, first.readInto(firstCache, List.of(jar)));
        firstCache.put(jar, computed); // Quarkus's archive step
        first.keepLater(firstCache);
        first.finishWriting();

        Map<Path, Index> nextCache = new HashMap<>();
        assertEquals(1, new KeptIndexes(folder).readInto(nextCache, List.of(jar, jars.resolve("absent.jar"))));

        Index read = nextCache.get(jar);
        assertEquals(names(computed), names(read));
        assertEquals(Set.of(DotName.createSimple(KeptIndexesTest.class)), read.getAnnotations(Test.class).stream()
                .map(annotation -> annotation.target().asMethod().declaringClass().name()).collect(Collectors.toSet()));
    }

    @Test
    void anIndexInTheCacheAlreadyIsLeftAsItIs() throws Exception {
        Path jar = jar("a.jar", false, KeptIndexesTest.class);
        keep(jar, index(KeptIndexesTest.class));
        Index inMemory = index(KeptIndexes.class);
        Map<Path, Index> cache = new HashMap<>(Map.of(jar, inMemory));

        assertEquals(0, new KeptIndexes(folder).readInto(cache, List.of(jar)));
        assertSame(inMemory, cache.get(jar));
    }

    @Test
    void aChangedJarIsIndexedAgain() throws Exception {
        Path jar = jar("a.jar", false, KeptIndexesTest.class);
        keep(jar, index(KeptIndexesTest.class));

        jar("a.jar", false, KeptIndexes.class);
        Files.setLastModifiedTime(jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() + 60_000));

        assertEquals(0, new KeptIndexes(folder).readInto(new HashMap<>(), List.of(jar)));
    }

    @Test
    void aJarThatCarriesItsIndexIsNotKept() throws Exception {
        Path jar = jar("indexed.jar", true, KeptIndexesTest.class);
        keep(jar, index(KeptIndexesTest.class));

        assertEquals(List.of(), files());
    }

    @Test
    void aKeptIndexThatCannotBeReadIsDeletedAndTheJarIndexedAgain() throws Exception {
        Path jar = jar("a.jar", false, KeptIndexesTest.class);
        keep(jar, index(KeptIndexesTest.class));
        Path kept = files().get(0);
        Files.write(kept, new byte[] { 1, 2, 3 });

        assertEquals(0, new KeptIndexes(folder).readInto(new HashMap<>(), List.of(jar)));
        assertFalse(Files.exists(kept));
    }

    @Test
    void anIndexNoStartReadForAMonthIsForgottenAndOneReadIsKept() throws Exception {
        Path unused = jar("unused.jar", false, KeptIndexesTest.class);
        Path used = jar("used.jar", false, KeptIndexes.class);
        keep(unused, index(KeptIndexesTest.class));
        keep(used, index(KeptIndexes.class));
        FileTime longAgo = FileTime.from(Instant.now().minus(KeptIndexes.UNUSED).minus(Duration.ofDays(1)));
        for (Path kept : files()) {
            Files.setLastModifiedTime(kept, longAgo);
        }
        KeptIndexes reading = new KeptIndexes(folder);
        assertEquals(1, reading.readInto(new HashMap<>(), List.of(used)));
        reading.finishWriting();

        new KeptIndexes(folder).forgetUnused();

        assertEquals(1, files().size(), "the file read stays: " + files());
        assertEquals(1, new KeptIndexes(folder).readInto(new HashMap<>(), List.of(used, unused)));
    }

    @Test
    void directoriesOfClassesAreNeverKept() throws Exception {
        keep(jars, index(KeptIndexesTest.class));

        assertEquals(List.of(), files());
    }

    /** What a JVM's archive step leaves for {@link KeptIndexes#keepLater}: the jar's index in Quarkus's cache. */
    private void keep(Path jar, Index index) throws InterruptedException {
        KeptIndexes kept = new KeptIndexes(folder);
        kept.keepLater(Map.of(jar, index));
        kept.finishWriting();
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
