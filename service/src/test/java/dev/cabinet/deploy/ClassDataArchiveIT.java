package dev.cabinet.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * The AppCDS step of Dockerfile.jvm, run as written (its /deployments being the packaged target/quarkus-app) on this
 * JVM: it must end by itself, connecting to nothing, and leave an archive that a JVM started with {@code -Xshare:on}
 * (which refuses to run without it) loads the application's classes from.
 */
class ClassDataArchiveIT {

    private static final Path DOCKERFILE = Path.of("src", "main", "docker", "Dockerfile.jvm");
    private static final Path APP = Path.of("target", "quarkus-app").toAbsolutePath();
    private static final Path OUT = Path.of("target", "class-data-it").toAbsolutePath();

    @Test
    void theImagesArchiveStepEndsByItselfAndItsArchiveIsUsed() throws Exception {
        Files.createDirectories(OUT);
        Map<String, String> environment = new LinkedHashMap<>();
        List<String> command = archiveStep(environment);
        Path archive = Path.of(argument(command, "-XX:ArchiveClassesAtExit="));
        Files.deleteIfExists(archive);

        assertEquals(0, run(command, environment, OUT.resolve("archive.log")),
                "the archive step failed; see archive.log");
        assertTrue(Files.size(archive) > 0, "no archive written at " + archive);

        List<String> using = new ArrayList<>(command.stream()
                .map(part -> part.startsWith("-XX:ArchiveClassesAtExit=") ? "-XX:SharedArchiveFile=" + archive : part)
                .toList());
        using.addAll(1, List.of("-Xshare:on", "-Xlog:class+load=info"));
        Path log = OUT.resolve("use.log");
        assertEquals(0, run(using, environment, log), "a JVM could not start from the archive; see use.log");
        long fromArchive = Files.readAllLines(log, StandardCharsets.UTF_8).stream()
                .filter(line -> line.contains("dev.cabinet.") && line.contains("shared objects file (top)")).count();
        assertTrue(fromArchive > 100, "only " + fromArchive + " of Cabinet's classes came from the archive");
    }

    /** The RUN step that archives the class data, its /deployments paths pointed at the packaged application. */
    private static List<String> archiveStep(Map<String, String> environment) throws IOException {
        String dockerfile = Files.readString(DOCKERFILE, StandardCharsets.UTF_8).replace("\\\n", " ");
        Matcher run = Pattern.compile("(?m)^RUN (.*ArchiveClassesAtExit.*)$").matcher(dockerfile);
        assertTrue(run.find(), "Dockerfile.jvm has no AppCDS step");
        List<String> command = new ArrayList<>();
        for (String part : run.group(1).trim().split("\\s+")) {
            part = part.replace("/deployments/app-cds.jsa", OUT.resolve("app-cds.jsa").toString())
                    .replace("/deployments/", APP + "/");
            if (command.isEmpty() && part.matches("[A-Z_]+=.*")) {
                String[] assignment = part.split("=", 2);
                environment.put(assignment[0], assignment[1]);
            } else {
                command.add(part);
            }
        }
        assertEquals("java", command.get(0));
        command.set(0, Path.of(System.getProperty("java.home"), "bin", "java").toString());
        return command;
    }

    private static String argument(List<String> command, String prefix) {
        return command.stream().filter(part -> part.startsWith(prefix)).findFirst()
                .map(part -> part.substring(prefix.length()))
                .orElseThrow(() -> new AssertionError("no " + prefix + " in " + command));
    }

    private static int run(List<String> command, Map<String, String> environment, Path log) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        Process process = builder.start();
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("still running after 2 minutes: " + String.join(" ", command));
        }
        return process.exitValue();
    }
}
