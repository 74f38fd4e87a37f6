package dev.cabinet.devservices.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ClassArchiveTest {

    private static final Path JAVA = Path.of(System.getProperty("java.home"), "bin", "java");

    @TempDir
    Path cache;
    @TempDir
    Path jars;

    /** Run by the child JVMs below. */
    public static class Child {
        public static void main(String[] args) {
            System.out.println("child ran");
        }
    }

    @Test
    void theFirstRunWritesTheArchiveAndTheNextLoadsItsClassesFromIt() throws Exception {
        String classpath = childJar();
        ClassArchive first = ClassArchive.of("child", JAVA, List.of(), classpath, cache);
        assertTrue(first.options().get(0).startsWith("-XX:ArchiveClassesAtExit="), first.options().toString());
        assertTrue(run(first.options(), List.of(), classpath).contains("child ran"));
        first.keep();

        ClassArchive next = ClassArchive.of("child", JAVA, List.of(), classpath, cache);
        assertTrue(next.options().get(0).startsWith("-XX:SharedArchiveFile="), next.options().toString());
        // -Xshare:on: a JVM that cannot use the archive fails instead of running without it.
        String loaded = run(next.options(), List.of("-Xshare:on", "-Xlog:class+load=info"), classpath);
        assertTrue(loaded.lines().anyMatch(line -> line.contains(Child.class.getName() + " source: shared objects file")),
                "the child's own class comes from the archive");
    }

    @Test
    void anotherClasspathHasAnArchiveOfItsOwn() throws Exception {
        String classpath = childJar();
        ClassArchive.of("child", JAVA, List.of(), classpath, cache).keep();
        ClassArchive other = ClassArchive.of("child", JAVA, List.of(), classpath + File.pathSeparator + "/elsewhere.jar",
                cache);
        assertTrue(other.options().get(0).startsWith("-XX:ArchiveClassesAtExit="));
    }

    @Test
    void aDirectoryOnTheClasspathMeansNoArchive() {
        // The JVM would refuse to start: "Cannot have non-empty directory in paths".
        assertEquals(List.of(), ClassArchive.of("child", JAVA, List.of(), System.getProperty("java.class.path"), cache)
                .options());
    }

    /** A jar holding {@link Child}: an archive is made only of classes loaded from jars. */
    private String childJar() throws Exception {
        Path jar = jars.resolve("child.jar");
        String entry = Child.class.getName().replace('.', '/') + ".class";
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
                InputStream in = Child.class.getClassLoader().getResourceAsStream(entry)) {
            out.putNextEntry(new JarEntry(entry));
            in.transferTo(out);
        }
        return jar.toString();
    }

    private static String run(List<String> archiveOptions, List<String> more, String classpath) throws Exception {
        List<String> command = new ArrayList<>(List.of(JAVA.toString()));
        command.addAll(more);
        command.addAll(archiveOptions);
        command.addAll(List.of("-cp", classpath, Child.class.getName()));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(child.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, child.exitValue(), output);
        return output;
    }
}
