package dev.cabinet.devservices.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A server's classpath is resolved once per user and coordinates and read back after that, as long as every jar it
 * names is still there; the broker's real classpath resolves to jars that exist.
 */
class MavenClasspathTest {

    private static final String COORDINATES = "org.example:server:1.0 org.example:logging:1.0";

    @TempDir
    Path cache;
    @TempDir
    Path repository;

    private final AtomicInteger resolutions = new AtomicInteger();

    @Test
    void aClasspathResolvedOnceIsReadBackWhileItsJarsAreThere() throws IOException {
        String classpath = jars("server-1.0.jar", "logging-1.0.jar");

        assertEquals(classpath, MavenClasspath.cached(COORDINATES, cache, counted(classpath)));
        assertEquals(classpath, MavenClasspath.cached(COORDINATES, cache, counted("never asked for")));
        assertEquals(1, resolutions.get(), "resolved once, then read back");
    }

    @Test
    void aClasspathNamingAJarThatIsGoneIsResolvedAgain() throws IOException {
        String classpath = jars("server-1.0.jar", "logging-1.0.jar");
        MavenClasspath.cached(COORDINATES, cache, counted(classpath));
        Files.delete(repository.resolve("logging-1.0.jar"));   // a repository cleaned, or moved elsewhere
        String again = jars("server-1.0.jar", "elsewhere-logging-1.0.jar");

        assertEquals(again, MavenClasspath.cached(COORDINATES, cache, counted(again)));
        assertEquals(2, resolutions.get());
    }

    @Test
    void otherCoordinatesAndClassesDirectoriesAreNotReadBack() throws IOException {
        String classpath = jars("server-1.0.jar");
        MavenClasspath.cached(COORDINATES, cache, counted(classpath));
        assertEquals(classpath, MavenClasspath.cached("org.example:server:1.1", cache, counted(classpath)));

        // A directory of classes may change under the same name: such a classpath is used, never kept.
        String withClasses = classpath + File.pathSeparator + Files.createDirectories(repository.resolve("classes"));
        MavenClasspath.cached("org.example:local:1.0", cache, counted(withClasses));
        MavenClasspath.cached("org.example:local:1.0", cache, counted(withClasses));
        assertEquals(4, resolutions.get());
    }

    @Test
    void theBrokersClasspathNamesJarsThatExist() {
        String classpath = MavenClasspath.kafka("4.1.2");
        for (String jar : classpath.split(File.pathSeparator)) {
            assertTrue(jar.endsWith(".jar") && Files.isRegularFile(Path.of(jar)), jar);
        }
        assertTrue(classpath.contains("kafka_2.13-4.1.2.jar"), classpath);
    }

    private Supplier<String> counted(String classpath) {
        return () -> {
            resolutions.incrementAndGet();
            return classpath;
        };
    }

    private String jars(String... names) throws IOException {
        StringBuilder classpath = new StringBuilder();
        for (String name : names) {
            Path jar = repository.resolve(name);
            if (!Files.exists(jar)) {
                Files.write(jar, new byte[] {'P', 'K'});
            }
            classpath.append(classpath.isEmpty() ? "" : File.pathSeparator).append(jar);
        }
        return classpath.toString();
    }
}
