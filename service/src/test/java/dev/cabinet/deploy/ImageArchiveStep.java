package dev.cabinet.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
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

/**
 * Dockerfile.jvm's AppCDS step as written, run on this JVM against the packaged application (its /deployments paths
 * pointed at target/quarkus-app) and writing its archive where asked: what the image does at build, for tests and the
 * benchmark, so they never drift from the Dockerfile.
 */
public final class ImageArchiveStep {

    private static final Path DOCKERFILE = Path.of("src", "main", "docker", "Dockerfile.jvm");
    private static final Path APP = Path.of("target", "quarkus-app").toAbsolutePath();
    private static final String ARCHIVE_OPTION = "-XX:ArchiveClassesAtExit=";

    private final List<String> command = new ArrayList<>();
    private final Map<String, String> environment = new LinkedHashMap<>();
    private final Path archive;

    public ImageArchiveStep(Path archive) {
        this(archive, APP);
    }

    /**
     * The same step run against another packaged Quarkus application ({@code app}, its quarkus-app directory): the
     * benchmark's hand-written baseline, archived the way the image archives Cabinet.
     */
    public ImageArchiveStep(Path archive, Path app) {
        this.archive = archive.toAbsolutePath();
        String dockerfile;
        try {
            dockerfile = Files.readString(DOCKERFILE, StandardCharsets.UTF_8).replace("\\\n", " ");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Matcher run = Pattern.compile("(?m)^RUN (.*" + Pattern.quote(ARCHIVE_OPTION) + ".*)$").matcher(dockerfile);
        if (!run.find()) {
            throw new IllegalStateException("Dockerfile.jvm has no AppCDS step");
        }
        for (String part : run.group(1).trim().split("\\s+")) {
            if (command.isEmpty() && part.matches("[A-Z_]+=.*")) {
                String[] assignment = part.split("=", 2);
                environment.put(assignment[0], assignment[1]);
            } else if (part.startsWith(ARCHIVE_OPTION)) {
                command.add(ARCHIVE_OPTION + this.archive);
            } else {
                command.add(part.replace("/deployments/", app.toAbsolutePath() + "/"));
            }
        }
        if (!command.get(0).equals("java")) {
            throw new IllegalStateException("the AppCDS step does not run java: " + command);
        }
        command.set(0, Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /** Runs the step, its output in {@code log}; the exit code. */
    public int archive(Path log) throws IOException, InterruptedException {
        Files.createDirectories(archive.getParent());
        Files.deleteIfExists(archive);
        return run(command, log);
    }

    /** Runs the step, its output in {@code log}, and fails unless it wrote the archive (for what needs one to go on). */
    public void archiveOrFail(Path log) throws IOException, InterruptedException {
        if (archive(log) != 0 || !Files.exists(archive)) {
            throw new IllegalStateException("could not archive the class data; see " + log);
        }
    }

    /** Runs the same command reading the archive instead, with these JVM options first; the exit code. */
    public int startFromArchive(List<String> jvmOptions, Path log) throws IOException, InterruptedException {
        List<String> using = new ArrayList<>(command.stream()
                .map(part -> part.startsWith(ARCHIVE_OPTION) ? "-XX:SharedArchiveFile=" + archive : part)
                .toList());
        using.addAll(1, jvmOptions);
        return run(using, log);
    }

    public Path archive() {
        return archive;
    }

    private int run(List<String> arguments, Path log) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(arguments).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        Process process = builder.start();
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IllegalStateException("still running after 2 minutes: " + String.join(" ", arguments));
        }
        return process.exitValue();
    }
}
