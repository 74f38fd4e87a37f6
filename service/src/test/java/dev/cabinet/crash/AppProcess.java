package dev.cabinet.crash;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.awaitility.Awaitility;

import dev.cabinet.devservices.launcher.LogFiles;

/**
 * The packaged application (target/quarkus-app) as a separate process in the prod profile, so that it can be killed
 * with SIGKILL or stopped with SIGTERM like a pod. Each start logs to a file of its own.
 */
public final class AppProcess {

    private static final Path APP = Path.of("target", "quarkus-app").toAbsolutePath();
    private static final Path JAR = APP.resolve("quarkus-run.jar");
    /**
     * The AppCDS archive the build wrote with this JVM: its classes load from it when the application is started from
     * its folder, as the archive names the jar. The ITs start about twenty of these processes on two cores; with the
     * archive CrashIT, ProductionModeIT and RebuildIT took 150, 108 and 97 s in a verify, 172, 130 and 118 s without.
     */
    private static final Path BUILD_ARCHIVE = APP.resolve("app-cds.jsa");

    private final String name;
    private final List<String> command;
    private final Map<String, String> environment;
    /** Where it runs, with nothing inherited from the test's environment (as in a container); null: the test's. */
    private final Path workingDirectory;
    /** Where it runs with the test's environment: the application's folder when it uses the build's archive. */
    private final Path directory;
    private final Path logDir;
    private final int port;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private Process process;
    private int starts;

    AppProcess(String name, int port, Map<String, String> properties, Map<String, String> environment, Path logDir,
            List<String> jvmOptions, boolean recordAwsCalls, Path javaHome) {
        this.name = name;
        // An archive or AOT cache of its own replaces the build's archive (which only this JVM's build can read).
        boolean ownArchive = jvmOptions.stream().anyMatch(option -> option.startsWith("-XX:SharedArchiveFile")
                || option.startsWith("-XX:AOTCache"));
        boolean buildArchive = !ownArchive && Files.isRegularFile(BUILD_ARCHIVE);
        this.workingDirectory = null;
        this.directory = buildArchive ? APP : null;
        if (!Files.isRegularFile(JAR)) {
            throw new IllegalStateException(JAR.toAbsolutePath() + " is missing: the crash tests run after package");
        }
        this.port = port;
        this.environment = environment;
        this.logDir = logDir;
        this.command = new ArrayList<>(List.of(javaHome.resolve("bin").resolve("java").toString()));
        command.addAll(jvmOptions);
        if (buildArchive) {
            command.add("-XX:SharedArchiveFile=" + BUILD_ARCHIVE.getFileName());
        }
        command.addAll(List.of("-Dquarkus.http.host=127.0.0.1", "-Dquarkus.http.port=" + port));
        properties.forEach((property, value) -> command.add("-D" + property + "=" + value));
        String callLog = System.getProperty("cabinet.iam.call-log");
        if (callLog != null && recordAwsCalls) {
            // The packaged application's AWS calls count too: IamPoliciesIT compares them with the IAM policies.
            command.add("-Dcabinet.iam.call-log=" + Path.of(callLog).toAbsolutePath());
        }
        command.addAll(List.of("-jar", buildArchive ? JAR.getFileName().toString() : JAR.toString()));
    }

    private AppProcess(String name, int port, List<String> command, Map<String, String> environment,
            Path workingDirectory, Path logDir) {
        this.name = name;
        this.port = port;
        this.command = List.copyOf(command);
        this.environment = environment;
        this.workingDirectory = workingDirectory;
        this.directory = null;
        this.logDir = logDir;
    }

    /**
     * A process that runs exactly this command in this directory with only these environment variables, as a
     * container's entrypoint would; {@code port} is where it answers.
     */
    public static AppProcess container(String name, int port, List<String> command, Map<String, String> environment,
            Path workingDirectory, Path logDir) {
        return new AppProcess(name, port, command, environment, workingDirectory, logDir);
    }

    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    /** The process id, for what the operating system knows of it (its resident memory). */
    public long pid() {
        return process.pid();
    }

    /** Starts the application and waits until readiness answers UP. */
    public void start() {
        start("/q/health/ready");
    }

    /**
     * Starts the application and waits until {@code probe} answers 200: liveness, for an instance that cannot get ready
     * (its broker is unreachable on purpose).
     */
    public void start(String probe) {
        launch();
        awaitAnswer(probe);
    }

    /**
     * Starts these applications at once and waits until each is ready: their JVMs start on both cores together rather
     * than one after another (each has a port of its own, {@link dev.cabinet.devservices.launcher.FreePorts}).
     */
    public static void startTogether(AppProcess... apps) {
        for (AppProcess app : apps) {
            app.launch();
        }
        for (AppProcess app : apps) {
            app.awaitAnswer("/q/health/ready");
        }
    }

    private void launch() {
        starts++;
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(logDir.resolve(name + "-" + starts + ".log").toFile());
        if (workingDirectory != null) {
            builder.directory(workingDirectory.toFile()).environment().clear();
        } else if (directory != null) {
            builder.directory(directory.toFile());
        }
        builder.environment().putAll(environment);
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void awaitAnswer(String probe) {
        Awaitility.await("the application answers " + probe).atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(50)).until(() -> {
                    if (!process.isAlive()) {
                        throw new IllegalStateException("the application exited with " + process.exitValue()
                                + "; see " + currentLog() + ", which ends:\n" + LogFiles.tail(currentLog(), 40));
                    }
                    return status(probe) == 200;
                });
    }

    /** SIGSTOP: the process stays, frozen, until {@link #resume()}. */
    public void pause() throws Exception {
        signal("-STOP");
    }

    /** SIGCONT. */
    public void resume() throws Exception {
        signal("-CONT");
    }

    private void signal(String signal) throws Exception {
        new ProcessBuilder("kill", signal, Long.toString(process.pid())).inheritIO().start().waitFor();
    }

    /** SIGKILL: no shutdown hook, no commit, nothing flushed. */
    public void kill() throws InterruptedException {
        process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }

    /** SIGTERM, as Kubernetes stops a pod; {@code false} if it was not gone within {@code limit}. */
    public boolean stopGracefully(Duration limit) throws InterruptedException {
        process.destroy();
        return process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** /q/health/ready's status code, or -1 if the application does not answer. */
    public int readinessStatus() {
        return status("/q/health/ready");
    }

    /** A GET's status code, or -1 if the application does not answer. */
    private int status(String path) {
        try {
            return http.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    public String name() {
        return name;
    }

    public Path currentLog() {
        return logDir.resolve(name + "-" + starts + ".log");
    }

    /**
     * The errors a Kafka client logged in the current log (its JSON lines), each named by the log: a client refused
     * what its user may not do keeps asking, and says so as it closes.
     */
    public List<String> kafkaClientErrors() throws IOException {
        List<String> errors = new ArrayList<>();
        for (String line : Files.readAllLines(currentLog())) {
            if (line.contains("\"level\":\"ERROR\"") && line.contains("\"loggerName\":\"org.apache.kafka")) {
                errors.add(currentLog().getFileName() + ": " + line.substring(0, Math.min(300, line.length())));
            }
        }
        return errors;
    }

    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(40, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }
}
