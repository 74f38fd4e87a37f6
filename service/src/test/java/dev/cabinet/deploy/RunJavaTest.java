package dev.cabinet.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The base image's entrypoint rules as {@link RunJava} states them, and the command lines the Dockerfiles give it:
 * one collector each, which a JVM accepts; the Dockerfile before issue 15 gave it two, which a JVM refuses.
 */
class RunJavaTest {

    private static final String JAR = "/deployments/app.jar";
    private static final List<String> DEFAULTS = List.of("-XX:MaxRAMPercentage=80.0", "-XX:+UseParallelGC",
            "-XX:MinHeapFreeRatio=10", "-XX:MaxHeapFreeRatio=20", "-XX:GCTimeRatio=4",
            "-XX:AdaptiveSizePolicyWeight=90", "-XX:+ExitOnOutOfMemoryError");
    /** Dockerfile.jvm's ENV lines as they were at 8a48d34, before issue 15. */
    private static final String DOCKERFILE_JVM_BEFORE = """
            ENV LANGUAGE='en_US:en'
            ENV JAVA_OPTS_APPEND="-XX:SharedArchiveFile=/deployments/app-cds.jsa -Xshare:auto -XX:+UseG1GC \
            -XX:MaxRAMPercentage=75 -XX:+ExitOnOutOfMemoryError -Dquarkus.http.host=0.0.0.0 \
            -Djava.util.logging.manager=org.jboss.logmanager.LogManager"
            ENV JAVA_APP_JAR="/deployments/quarkus-run.jar"
            """;

    @Test
    void withOnlyAJarTheEntrypointAddsItsHeapCollectorAndOutOfMemoryDefaults() {
        RunJava.Command command = RunJava.compose(Map.of("JAVA_APP_JAR", JAR), List.of());
        assertEquals(line(DEFAULTS, "-cp", ".", "-jar", JAR), command.arguments());
        assertEquals("/deployments", command.workingDirectory());
        assertEquals(List.of("-XX:+UseParallelGC"), command.collectors());
    }

    @Test
    void javaOptsAppendComesLastAndIsSplitOnWhiteSpaceWithoutQuoting() {
        RunJava.Command command = RunJava.compose(Map.of("JAVA_APP_JAR", JAR,
                "JAVA_OPTS_APPEND", "  -Da=1   -Db=\"x y\" "), List.of("arg"));
        List<String> expected = new ArrayList<>(DEFAULTS);
        expected.addAll(List.of("-Da=1", "-Db=\"x", "y\""));
        assertEquals(line(expected, "-cp", ".", "-jar", JAR, "arg"), command.arguments());
    }

    @Test
    void javaOptsEvenEmptyReplacesEveryGeneratedOptionAndTheAppendedOnes() {
        assertEquals(line(List.of("-Dx=1"), "-cp", ".", "-jar", JAR), RunJava.compose(Map.of("JAVA_APP_JAR", JAR,
                "JAVA_OPTS", "-Dx=1", "JAVA_OPTS_APPEND", "-Dy=2"), List.of()).arguments());
        assertEquals(line(List.of(), "-cp", ".", "-jar", JAR),
                RunJava.compose(Map.of("JAVA_APP_JAR", JAR, "JAVA_OPTS", ""), List.of()).arguments());
    }

    @Test
    void gcContainerOptionsReplacesParallelGcAndAnEmptyOneKeepsIt() {
        assertEquals(List.of("-XX:+UseG1GC"), RunJava.compose(Map.of("JAVA_APP_JAR", JAR,
                "GC_CONTAINER_OPTIONS", "-XX:+UseG1GC"), List.of()).collectors());
        assertEquals(List.of("-XX:+UseParallelGC"), RunJava.compose(Map.of("JAVA_APP_JAR", JAR,
                "GC_CONTAINER_OPTIONS", ""), List.of()).collectors());
    }

    @Test
    void theHeapRatioIsRoundedToAWholeNumberAndZeroLeavesItToTheJvm() {
        assertEquals("-XX:MaxRAMPercentage=90.0", ratio("90.4"));
        assertEquals("-XX:MaxRAMPercentage=90.0", ratio("90"));
        assertEquals("-XX:MaxRAMPercentage=75.0", ratio("75"));
        assertTrue(RunJava.compose(Map.of("JAVA_APP_JAR", JAR, "JAVA_MAX_MEM_RATIO", "0"), List.of()).jvmOptions()
                .stream().noneMatch(option -> option.startsWith("-XX:MaxRAMPercentage")));
        assertTrue(RunJava.compose(Map.of("JAVA_APP_JAR", JAR), List.of()).jvmOptions().stream()
                .noneMatch(option -> option.startsWith("-Xms") || option.startsWith("-XX:InitialRAMPercentage")));
    }

    @Test
    void gcTuningVariablesAndTheMetaspaceClampedToItsMaximum() {
        List<String> options = RunJava.compose(Map.of("JAVA_APP_JAR", JAR, "GC_MIN_HEAP_FREE_RATIO", "5",
                "GC_MAX_HEAP_FREE_RATIO", "50", "GC_TIME_RATIO", "9", "GC_ADAPTIVE_SIZE_POLICY_WEIGHT", "80",
                "GC_METASPACE_SIZE", "120", "GC_MAX_METASPACE_SIZE", "90"), List.of()).jvmOptions();
        assertEquals(List.of("-XX:MaxRAMPercentage=80.0", "-XX:+UseParallelGC", "-XX:MinHeapFreeRatio=5",
                "-XX:MaxHeapFreeRatio=50", "-XX:GCTimeRatio=9", "-XX:AdaptiveSizePolicyWeight=80",
                "-XX:MaxMetaspaceSize=90m", "-XX:MetaspaceSize=90m", "-XX:+ExitOnOutOfMemoryError"), options);
    }

    @Test
    void debugOptionsOnlyWhenJavaDebugIsSetFirstOfAll() {
        assertEquals("-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=5005", RunJava.compose(
                Map.of("JAVA_APP_JAR", JAR, "JAVA_DEBUG", "true"), List.of()).jvmOptions().get(0));
        assertEquals("-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=8787", RunJava.compose(
                Map.of("JAVA_APP_JAR", JAR, "JAVA_DEBUG", "true", "JAVA_DEBUG_PORT", "8787"), List.of())
                .jvmOptions().get(0));
        assertTrue(RunJava.compose(Map.of("JAVA_APP_JAR", JAR), List.of()).jvmOptions().stream()
                .noneMatch(option -> option.startsWith("-agentlib")));
    }

    @Test
    void javaArgsIsNotReadAndAnotherLibraryDirectoryJoinsTheClassPath() {
        assertEquals(line(DEFAULTS, "-cp", ".:/lib", "-jar", "/app/x.jar"), RunJava.compose(Map.of("JAVA_APP_JAR",
                "x.jar", "JAVA_APP_DIR", "/app", "JAVA_LIB_DIR", "/lib", "JAVA_ARGS", "ignored"), List.of())
                .arguments());
    }

    @Test
    void whatTheModelDoesNotCoverIsRefusedNotGuessed() {
        assertThrows(IllegalArgumentException.class, () -> RunJava.compose(Map.of(), List.of()));
        assertThrows(IllegalArgumentException.class,
                () -> RunJava.compose(Map.of("JAVA_APP_JAR", JAR, "https_proxy", "http://proxy:3128"), List.of()));
    }

    @Test
    void theDockerfileBeforeIssue15GaveTheJvmTwoCollectorsAndTheJvmRefusesThem() throws Exception {
        RunJava.Command before = RunJava.compose(ImageDockerfile.of("Dockerfile.jvm@8a48d34", DOCKERFILE_JVM_BEFORE)
                .env(), List.of());
        assertEquals(List.of("-XX:+UseParallelGC", "-XX:+UseG1GC"), before.collectors());

        String output = javaVersion(before.collectors());
        assertTrue(output.contains("Multiple garbage collectors selected"), output);
    }

    @Test
    void theJvmImageGivesTheJvmOneCollectorG1AndOptionsItAccepts() throws Exception {
        String file = "Dockerfile.jvm";
        RunJava.Command command = ImageDockerfile.read(file).entrypointCommand();
        assertEquals(List.of("-XX:+UseG1GC"), command.collectors(), file + ": " + command.arguments());
        assertEquals("/deployments/quarkus-run.jar", command.arguments().get(command.arguments().indexOf("-jar") + 1));
        assertTrue(command.jvmOptions().contains("-XX:MaxRAMPercentage=75.0"), command.arguments().toString());
        javaVersion(command.jvmOptions().stream().filter(option -> !option.startsWith("-XX:SharedArchiveFile"))
                .toList());
    }

    /** The Java 25 image's entrypoint composes the same line as the Java 21 image's, the cache in place of the archive. */
    @Test
    void theJava25ImageGivesTheJvmTheSameLineWithItsCacheInPlaceOfTheArchive() {
        List<String> jvm = ImageDockerfile.read("Dockerfile.jvm").entrypointCommand().arguments();
        List<String> jvm25 = ImageDockerfile.read("Dockerfile.jvm25").entrypointCommand().arguments();
        assertEquals(jvm.stream().filter(option -> !option.startsWith("-XX:SharedArchiveFile")
                && !option.equals("-Xshare:auto")).toList(),
                jvm25.stream().filter(option -> !option.startsWith("-XX:AOTCache=")).toList());
        assertTrue(jvm25.contains("-XX:AOTCache=/deployments/app.aot"), jvm25.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = { "Dockerfile.jvm25", "Dockerfile.native", "Dockerfile.native-micro" })
    void everyHeaderRunsItsOwnImageWithTheSettingsTheStartedJvmImageIsGiven(String file) {
        ImageDockerfile dockerfile = ImageDockerfile.read(file);
        ImageDockerfile.DockerRun jvm = ImageDockerfile.read("Dockerfile.jvm").run();
        assertEquals(jvm.env(), dockerfile.run().env(), file);
        assertEquals(jvm.mounts(), dockerfile.run().mounts(), file);
        assertTrue(dockerfile.run().image().length() > 0
                && readString(file).contains("-t " + dockerfile.run().image() + " "), file + " runs what it builds");
    }

    @Test
    void theHeadersQuotedCommandSubstitutionIsOneWordAndGivesTheContainerAFreshKey() {
        assertEquals(List.of("docker", "run", "-e", "A=$(openssl rand -base64 32)", "-e", "B=x y", "image"),
                ImageDockerfile.DockerRun.words("docker run -e A=\"$(openssl rand -base64 32)\" -e \"B=x y\" image"));
        String key = ImageDockerfile.read("Dockerfile.jvm").containerEnv().get("CABINET_LOCAL_WRAPPING_KEY");
        assertEquals(32, Base64.getDecoder().decode(key).length, key);
        assertNotEquals(key, ImageDockerfile.read("Dockerfile.jvm").containerEnv().get("CABINET_LOCAL_WRAPPING_KEY"));
        assertThrows(IllegalArgumentException.class, () -> ImageDockerfile.substituted("$(cat /etc/key)"));
    }

    private static String ratio(String ratio) {
        return RunJava.compose(Map.of("JAVA_APP_JAR", JAR, "JAVA_MAX_MEM_RATIO", ratio), List.of()).jvmOptions().get(0);
    }

    private static List<String> line(List<String> options, String... rest) {
        List<String> line = new ArrayList<>(List.of("java"));
        line.addAll(options);
        line.addAll(List.of(rest));
        return line;
    }

    /** {@code java <options> -version} on this JVM: its output; it must exit 0 unless two collectors are asked. */
    private static String javaVersion(List<String> options) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString()));
        command.addAll(options);
        command.add("-version");
        Process java = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(java.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(java.waitFor(60, TimeUnit.SECONDS));
        if (options.stream().filter(option -> option.matches("-XX:\\+Use\\w+GC")).count() > 1) {
            assertNotEquals(0, java.exitValue(), output);
        } else {
            assertEquals(0, java.exitValue(), command + ": " + output);
        }
        return output;
    }

    private static String readString(String file) {
        try {
            return Files.readString(ImageDockerfile.DIR.resolve(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
