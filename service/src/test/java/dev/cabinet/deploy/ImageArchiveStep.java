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
 * A JVM image's class-data step as written, run against the packaged application (its /deployments paths pointed at
 * target/quarkus-app) and writing its archive where asked: what the image does at build, for tests and the benchmark,
 * so they never drift from the Dockerfile. Dockerfile.jvm's step writes an AppCDS archive
 * ({@code -XX:ArchiveClassesAtExit}), Dockerfile.jvm25's an AOT cache ({@code -XX:AOTCacheOutput}), each run by the
 * JVM of the image's Java version: this one, or the one whose home is given.
 */
public final class ImageArchiveStep {

    private static final Path APP = Path.of("target", "quarkus-app").toAbsolutePath();
    private static final String ARCHIVE_OPTION = "-XX:ArchiveClassesAtExit=";
    private static final String CACHE_OPTION = "-XX:AOTCacheOutput=";

    private final List<String> command = new ArrayList<>();
    private final Map<String, String> environment = new LinkedHashMap<>();
    private final Path archive;
    /** The option that writes the archive, and the one that reads it. */
    private final String writes;
    private final String reads;

    public ImageArchiveStep(Path archive) {
        this(archive, APP);
    }

    /**
     * The same step run against another packaged Quarkus application ({@code app}, its quarkus-app directory): the
     * benchmark's hand-written baseline, archived the way the image archives Cabinet.
     */
    public ImageArchiveStep(Path archive, Path app) {
        this(archive, app, "Dockerfile.jvm", Path.of(System.getProperty("java.home")));
    }

    /** The step of the named Dockerfile, run by the JVM in {@code javaHome}. */
    public ImageArchiveStep(Path archive, Path app, String dockerfileName, Path javaHome) {
        this.archive = archive.toAbsolutePath();
        String dockerfile;
        try {
            dockerfile = Files.readString(ImageDockerfile.DIR.resolve(dockerfileName), StandardCharsets.UTF_8)
                    .replace("\\\n", " ");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Matcher run = Pattern.compile("(?m)^RUN (.*(" + Pattern.quote(ARCHIVE_OPTION) + "|" + Pattern.quote(CACHE_OPTION)
                + ").*)$").matcher(dockerfile);
        if (!run.find()) {
            throw new IllegalStateException(dockerfileName + " has no class-data step");
        }
        this.writes = run.group(2);
        this.reads = writes.equals(CACHE_OPTION) ? "-XX:AOTCache=" : "-XX:SharedArchiveFile=";
        for (String part : run.group(1).trim().split("\\s+")) {
            if (command.isEmpty() && part.matches("[A-Z_]+=.*")) {
                String[] assignment = part.split("=", 2);
                environment.put(assignment[0], assignment[1]);
            } else if (part.startsWith(writes)) {
                command.add(writes + this.archive);
            } else {
                command.add(part.replace("/deployments/", app.toAbsolutePath() + "/"));
            }
        }
        if (!command.get(0).equals("java")) {
            throw new IllegalStateException("the class-data step does not run java: " + command);
        }
        command.set(0, javaHome.resolve("bin").resolve("java").toString());
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
                .map(part -> part.startsWith(writes) ? reads + archive : part)
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
