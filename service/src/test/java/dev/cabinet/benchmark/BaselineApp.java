package dev.cabinet.benchmark;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import dev.cabinet.crash.AppProcess;
import dev.cabinet.crash.ProcessHarness;
import dev.cabinet.devservices.launcher.FreePorts;

/**
 * The hand-written baseline (benchmark/baseline) as a process of its own: where it is and its wiring (its class-data
 * archive is made by {@code new ImageArchiveStep(archive, BaselineApp.DIR)}, since Cabinet's is for Cabinet's classpath).
 */
final class BaselineApp {

    /** Its packaged application, built by benchmark/run and benchmark/footprint before they run. */
    static final Path DIR = Path.of("..", "benchmark", "baseline", "target", "quarkus-app").toAbsolutePath().normalize();
    static final Path JAR = DIR.resolve("quarkus-run.jar");

    private BaselineApp() {
    }

    /**
     * The baseline with these JVM options and properties, wired to the harness's broker and store as Cabinet's
     * instances are; not started.
     */
    static AppProcess process(ProcessHarness harness, String name, List<String> jvm, Map<String, String> properties)
            throws Exception {
        return process(harness, name, jvm, properties, Path.of(System.getProperty("java.home")));
    }

    /** As {@link #process(ProcessHarness, String, List, Map)}, run by the JVM in {@code javaHome}. */
    static AppProcess process(ProcessHarness harness, String name, List<String> jvm, Map<String, String> properties,
            Path javaHome) throws Exception {
        if (!Files.isRegularFile(JAR)) {
            throw new IllegalStateException(JAR + " is missing: benchmark/run and benchmark/footprint build "
                    + "benchmark/baseline first");
        }
        int port = FreePorts.pick();
        List<String> command = new ArrayList<>(List.of(javaHome.resolve("bin").resolve("java").toString()));
        command.addAll(jvm);
        command.addAll(List.of("-Dquarkus.http.host=127.0.0.1", "-Dquarkus.http.port=" + port,
                "-Dkafka.bootstrap.servers=" + harness.broker.bootstrapServers(),
                "-Dquarkus.dynamodb.endpoint-override=" + harness.dynalite.endpoint(),
                "-Dquarkus.dynamodb.aws.region=us-east-1", "-Dquarkus.dynamodb.aws.credentials.type=static",
                "-Dquarkus.dynamodb.aws.credentials.static-provider.access-key-id=test",
                "-Dquarkus.dynamodb.aws.credentials.static-provider.secret-access-key=test"));
        properties.forEach((property, value) -> command.add("-D" + property + "=" + value));
        command.addAll(List.of("-jar", JAR.toString()));
        return harness.container(name, port, command, Map.of(), DIR);
    }
}
