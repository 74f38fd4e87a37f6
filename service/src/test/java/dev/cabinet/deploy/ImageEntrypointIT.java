package dev.cabinet.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.cabinet.crash.AppProcess;
import dev.cabinet.crash.ProcessHarness;

/**
 * The JVM images started as their entrypoint starts them: the command line the base image's {@code run-java.sh}
 * composes ({@link RunJava}) from the Dockerfile's {@code ENV} and its header's {@code docker run -e} settings, run on
 * this JVM against the packaged application laid out as the Dockerfile copies it, must answer ready. Only what Docker
 * itself would provide is substituted: the container's paths by the build output, the host's Kafka and DynamoDB
 * addresses by the test's broker and dynalite, the mounted key file by the test's, and the published port by a free
 * one.
 */
class ImageEntrypointIT {

    private static final Path OUT = Path.of("target", "image-entrypoint-it").toAbsolutePath();
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static ProcessHarness harness;

    @BeforeAll
    static void infrastructure() throws Exception {
        harness = new ProcessHarness("image-entrypoint-it");
    }

    @AfterAll
    static void stop() throws Exception {
        if (harness != null) {
            harness.close();
        }
    }

    @Test
    void theJvmImageAnswersReadyStartedAsItsEntrypointStartsIt() throws Exception {
        ImageDockerfile dockerfile = ImageDockerfile.read("Dockerfile.jvm");
        // the image build's own step first: the archive that JAVA_OPTS_APPEND names
        ImageArchiveStep step = new ImageArchiveStep(OUT.resolve("jvm-app-cds.jsa"));
        assertEquals(0, step.archive(OUT.resolve("jvm-archive.log")), "the archive step failed");
        Map<String, Path> paths = new LinkedHashMap<>();
        paths.put("/deployments/app-cds.jsa", step.archive());
        paths.put("/deployments", Path.of("target", "quarkus-app").toAbsolutePath());

        startAsTheEntrypoint(dockerfile, paths);
    }

    @Test
    void theLegacyJarImageAnswersReadyStartedAsItsEntrypointStartsIt() throws Exception {
        ImageDockerfile dockerfile = ImageDockerfile.read("Dockerfile.legacy-jar");
        Path target = packageLegacyJar();
        // COPY target/lib/* /deployments/lib/ and COPY target/*-runner.jar /deployments/quarkus-run.jar
        Path output = OUT.resolve("legacy-jar-deployments");
        Files.createDirectories(output.resolve("lib"));
        try (Stream<Path> libraries = Files.list(target.resolve("lib"))) {
            for (Path library : libraries.toList()) {
                Files.copy(library, output.resolve("lib").resolve(library.getFileName()),
                        StandardCopyOption.REPLACE_EXISTING);
            }
        }
        try (Stream<Path> files = Files.list(target)) {
            List<Path> runners = files.filter(file -> file.getFileName().toString().endsWith("-runner.jar")).toList();
            assertEquals(1, runners.size(), "one runner jar in " + target + ": " + runners);
            Files.copy(runners.get(0), output.resolve("quarkus-run.jar"), StandardCopyOption.REPLACE_EXISTING);
        }

        startAsTheEntrypoint(dockerfile, Map.of("/deployments", output));
    }

    /**
     * The header's build command as written, run in a copy of the sources (without build output): the jars of this
     * build, which this test's JVM has open, stay untouched, and target/quarkus-app, which the other tests run, too.
     * Its output: the copy's service/target, whose lib/ and *-runner.jar the Dockerfile copies.
     */
    private static Path packageLegacyJar() throws IOException, InterruptedException {
        Path copy = OUT.resolve("legacy-jar-sources");
        copySources(ROOT, copy);
        String command = ImageDockerfile.read("Dockerfile.legacy-jar").buildCommand();
        List<String> arguments = new ArrayList<>(List.of(command.split("\\s+")));
        assertEquals("./mvnw", arguments.get(0), command);
        arguments.add(1, "-B");
        Path log = OUT.resolve("legacy-jar-package.log");
        Process maven = new ProcessBuilder(arguments).directory(copy.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        assertTrue(maven.waitFor(8, TimeUnit.MINUTES), "still packaging after 8 minutes; see " + log);
        assertEquals(0, maven.exitValue(), String.join(" ", arguments) + " failed; see " + log);
        return copy.resolve("service").resolve("target");
    }

    /** The repository's files, without build output, installed packages or history, into a fresh directory. */
    private static void copySources(Path from, Path to) throws IOException {
        if (Files.exists(to)) {
            try (Stream<Path> old = Files.walk(to)) {
                for (Path path : old.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
        Files.walkFileTree(from, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path directory, BasicFileAttributes attributes)
                    throws IOException {
                if (Set.of("target", "node_modules", ".git").contains(String.valueOf(directory.getFileName()))) {
                    return FileVisitResult.SKIP_SUBTREE;
                }
                Files.createDirectories(to.resolve(from.relativize(directory).toString()));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                if (file.getFileName().toString().equals(".git")) {
                    return FileVisitResult.CONTINUE; // a worktree's pointer to its repository
                }
                Files.copy(file, to.resolve(from.relativize(file).toString()), StandardCopyOption.COPY_ATTRIBUTES);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    private static void startAsTheEntrypoint(ImageDockerfile dockerfile, Map<String, Path> paths) throws Exception {
        RunJava.Command command = dockerfile.entrypointCommand();
        assertEquals(List.of("-XX:+UseG1GC"), command.collectors(), "composed by " + RunJava.SOURCE + ": "
                + command.arguments());

        List<String> arguments = new ArrayList<>();
        arguments.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String argument : command.arguments().subList(1, command.arguments().size())) {
            arguments.add(ImageDockerfile.onThisMachine(argument, paths));
        }
        int port = ProcessHarness.freePort();
        Map<String, String> environment = new LinkedHashMap<>();
        dockerfile.containerEnv().forEach((name, value) -> environment.put(name, wired(dockerfile, value)));
        environment.put("QUARKUS_HTTP_PORT", Integer.toString(port)); // docker run -p 8080:8080
        environment.values().forEach(value -> assertFalse(value.contains("host.docker.internal"),
                "an address of the header this test does not wire: " + value));

        AppProcess app = harness.container(dockerfile.name(), port, arguments, environment,
                Path.of(ImageDockerfile.onThisMachine(command.workingDirectory(), paths)));
        Files.writeString(OUT.resolve(dockerfile.name() + ".command"), String.join(" ", arguments) + "\n");
        app.start();
        assertEquals(200, app.readinessStatus());
        app.close();
    }

    /** A header value with Docker's part done by the test: the host's services and the mounted key file. */
    private static String wired(ImageDockerfile dockerfile, String value) {
        String wired = value.replace("http://host.docker.internal:4567", harness.dynalite.endpoint())
                .replace("host.docker.internal:9092", harness.broker.bootstrapServers());
        for (Map.Entry<String, String> mount : dockerfile.run().mounts().entrySet()) {
            if (wired.contains(mount.getKey())) {
                assertTrue(mount.getValue().endsWith("/issuer-public-key.pem"), "an unknown mount: " + mount);
                wired = wired.replace(mount.getKey(), harness.publicKey().toString());
            }
        }
        return wired;
    }
}
