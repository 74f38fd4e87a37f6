package dev.cabinet.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

/**
 * The JVM image started as its entrypoint starts it: the command line the base image's {@code run-java.sh}
 * composes ({@link RunJava}) from the Dockerfile's {@code ENV} and its header's {@code docker run -e} settings, run on
 * this JVM against the packaged application laid out as the Dockerfile copies it, must answer ready. Only what Docker
 * itself would provide is substituted: the container's paths by the build output, the host's Kafka and DynamoDB
 * addresses by the test's broker and dynalite, the mounted key file by the test's, and the published port by a free
 * one.
 */
class ImageEntrypointIT {

    private static final Path OUT = Path.of("target", "image-entrypoint-it").toAbsolutePath();
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
