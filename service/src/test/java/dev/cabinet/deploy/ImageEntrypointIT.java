package dev.cabinet.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.cabinet.crash.AppProcess;
import dev.cabinet.crash.ProcessHarness;
import dev.cabinet.devservices.launcher.FreePorts;

/**
 * The JVM images started as their entrypoint starts them: the command line the base image's {@code run-java.sh}
 * composes ({@link RunJava}) from the Dockerfile's {@code ENV} and its header's {@code docker run -e} settings, run on
 * a JVM of the image's Java version (this one for Dockerfile.jvm, a JDK 25 for Dockerfile.jvm25) against the packaged
 * application laid out as the Dockerfile copies it, must answer ready. Only what Docker
 * itself would provide is substituted: the container's paths by the build output, the host's Kafka and DynamoDB
 * addresses by the test's broker and dynalite, the mounted key file by the test's, and the published port by a free
 * one.
 */
class ImageEntrypointIT {

    private static final Path OUT = Path.of("target", "image-entrypoint-it").toAbsolutePath();
    private static final Path JDK25 = ImageDockerfile.JDK25;
    /** The host the image's entrypoint has the application listen on: every interface of its container. */
    private static final String ALL_INTERFACES = "-Dquarkus.http.host=0.0.0.0";
    private static ProcessHarness harness;
    /** The image build's own AppCDS step, run once for both tests: it starts the application to write the archive. */
    private static ImageArchiveStep archived;
    /** Dockerfile.jvm25's AOT cache step, likewise. */
    private static ImageArchiveStep cached;

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

    /** The AppCDS step of Dockerfile.jvm, run as written (its /deployments being the packaged target/quarkus-app). */
    private static synchronized ImageArchiveStep archived() throws Exception {
        if (archived == null) {
            archived = ranStep("Dockerfile.jvm", Path.of(System.getProperty("java.home")), "jvm-app-cds.jsa");
        }
        return archived;
    }

    /** The AOT cache step of Dockerfile.jvm25, run as written by a JDK 25. */
    private static synchronized ImageArchiveStep cached() throws Exception {
        assumeTrue(Files.isExecutable(JDK25.resolve("bin").resolve("java")), "no JDK 25 at " + JDK25
                + " (-Dcabinet.jdk25.home)");
        if (cached == null) {
            cached = ranStep("Dockerfile.jvm25", JDK25, "jvm25-app.aot");
        }
        return cached;
    }

    /** The image's class-data step, run once by the JVM in {@code javaHome}: it must succeed and write its file. */
    private static ImageArchiveStep ranStep(String dockerfile, Path javaHome, String file) throws Exception {
        ImageArchiveStep step = new ImageArchiveStep(OUT.resolve(file), Path.of("target", "quarkus-app").toAbsolutePath(),
                dockerfile, javaHome);
        String log = file + ".log";
        assertEquals(0, step.archive(OUT.resolve(log)), "the class-data step failed; see " + log);
        assertTrue(Files.size(step.archive()) > 0, "nothing written at " + step.archive());
        return step;
    }

    /**
     * The archive step must end by itself, connecting to nothing, and leave an archive that a JVM started with the
     * options the image's entrypoint gives it (RunJava) and {@code -Xshare:on} (which refuses to run without it) loads
     * the application's classes from.
     */
    @Test
    void theImagesArchiveStepEndsByItselfAndItsArchiveIsUsed() throws Exception {
        long fromArchive = cabinetClassesFrom(archived(), "Dockerfile.jvm", "/deployments/app-cds.jsa", "-Xshare:on",
                "shared objects file (top)");
        assertTrue(fromArchive > 100, "only " + fromArchive + " of Cabinet's classes came from the archive");
    }

    /**
     * Likewise for the Java 25 image: its step ends by itself, and a JVM started with the entrypoint's options and
     * {@code -XX:AOTMode=on} (which refuses to run without a usable cache) loads the application's classes from it.
     */
    @Test
    void theJava25ImagesCacheStepEndsByItselfAndItsCacheIsUsed() throws Exception {
        long fromCache = cabinetClassesFrom(cached(), "Dockerfile.jvm25", "/deployments/app.aot", "-XX:AOTMode=on",
                "source: shared objects file");
        assertTrue(fromCache > 100, "only " + fromCache + " of Cabinet's classes came from the cache");
    }

    /**
     * How many of Cabinet's classes a JVM loads from the step's file ({@code source} in its class-loading log), started
     * with the options the image's entrypoint gives it (its collector among them), the file at {@code containerPath},
     * then {@code strict}, with which the JVM refuses to run without the file.
     */
    private static long cabinetClassesFrom(ImageArchiveStep step, String dockerfile, String containerPath,
            String strict, String source) throws Exception {
        Path log = OUT.resolve(dockerfile + "-use.log");
        List<String> options = new ArrayList<>(ImageDockerfile.read(dockerfile).entrypointJvmOptions(Map.of(),
                Map.of(containerPath, step.archive())));
        options.addAll(List.of(strict, "-Xlog:class+load=info"));
        assertEquals(0, step.startFromArchive(options, log), "a JVM could not start from " + step.archive() + "; see "
                + log);
        return Files.readAllLines(log, StandardCharsets.UTF_8).stream()
                .filter(line -> line.contains("dev.cabinet.") && line.contains(source)).count();
    }

    @Test
    void theJvmImageAnswersReadyStartedAsItsEntrypointStartsIt() throws Exception {
        // the image build's own step first: the archive that JAVA_OPTS_APPEND names
        startAsTheEntrypoint("Dockerfile.jvm", "/deployments/app-cds.jsa", archived(),
                Path.of(System.getProperty("java.home")));
    }

    @Test
    void theJava25ImageAnswersReadyStartedAsItsEntrypointStartsIt() throws Exception {
        startAsTheEntrypoint("Dockerfile.jvm25", "/deployments/app.aot", cached(), JDK25);
    }

    /** The image started as its entrypoint starts it, its class data where the image has it, by the JVM in javaHome. */
    private static void startAsTheEntrypoint(String name, String classDataPath, ImageArchiveStep step, Path javaHome)
            throws Exception {
        Map<String, Path> paths = new LinkedHashMap<>();
        paths.put(classDataPath, step.archive());
        paths.put("/deployments", Path.of("target", "quarkus-app").toAbsolutePath());
        startAsTheEntrypoint(ImageDockerfile.read(name), paths, javaHome);
    }

    private static void startAsTheEntrypoint(ImageDockerfile dockerfile, Map<String, Path> paths, Path javaHome)
            throws Exception {
        RunJava.Command command = dockerfile.entrypointCommand();
        assertEquals(List.of("-XX:+UseG1GC"), command.collectors(), "composed by " + RunJava.SOURCE + ": "
                + command.arguments());

        List<String> arguments = new ArrayList<>();
        arguments.add(javaHome.resolve("bin").resolve("java").toString());
        for (String argument : command.arguments().subList(1, command.arguments().size())) {
            arguments.add(ImageDockerfile.onThisMachine(argument, paths));
        }
        // In its container the application listens on every interface of the pod's own network; here that would be
        // this machine's, so it listens on the loopback address alone, as every server the tests start does.
        int host = arguments.indexOf(ALL_INTERFACES);
        assertTrue(host > 0, "the entrypoint's command names the host the application listens on: " + arguments);
        arguments.set(host, "-Dquarkus.http.host=127.0.0.1");
        int port = FreePorts.pick();
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
