package dev.cabinet.devservices.launcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * s3proxy (Apache-2.0, Java) in a child JVM on a free loopback port: an S3 API that checks what Amazon S3 checks of a
 * request (SigV2 and SigV4 signatures, presigned URLs' expiry and signed headers, so a changed {@code Content-Length}
 * or {@code Content-Type} is refused), path-style only, with the given bucket. Objects live in files under the state
 * folder (jclouds' filesystem store), so a restart on the same port keeps them, as Amazon S3 keeps them through an
 * outage. Chosen over s3rver, which checked no signature (docs/dev-services.md has the comparison).
 */
public final class S3Proxy implements AutoCloseable {

    /** The one key pair it accepts: requests signed with any other key, or unsigned, are refused (403). */
    public static final String ACCESS_KEY = "local-access-key";
    public static final String SECRET_KEY = "local-secret-key";

    public static final String COORDINATES = "org.gaul:s3proxy:2.6.0";
    /** A small server: the serial collector and the C1 compiler start it sooner and keep it light. */
    private static final List<String> JVM_OPTIONS = List.of("-Xms32m", "-Xmx192m", "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1");

    private final LaunchSettings settings;
    private final Path dir;
    private final OrphanRegistry registry;
    private final int port;
    private ChildProcess process;
    private ClassArchive archive;

    private S3Proxy(LaunchSettings settings, Path dir, OrphanRegistry registry, int port) {
        this.settings = settings;
        this.dir = dir;
        this.registry = registry;
        this.port = port;
    }

    public static S3Proxy start(LaunchSettings settings, Path stateDir, OrphanRegistry registry, String bucket) {
        int port = FreePorts.pick();
        Path dir = stateDir.resolve("s3proxy-" + port);
        try {
            // The filesystem store serves each folder under its base as a bucket: the bucket exists before it listens.
            Files.createDirectories(dir.resolve("objects").resolve(bucket));
            Files.writeString(dir.resolve("s3proxy.conf"), String.join("\n",
                    "s3proxy.endpoint=http://" + FreePorts.LOOPBACK + ":" + port,
                    "s3proxy.authorization=aws-v2-or-v4",
                    "s3proxy.identity=" + ACCESS_KEY,
                    "s3proxy.credential=" + SECRET_KEY,
                    "jclouds.provider=filesystem",
                    "jclouds.filesystem.basedir=" + dir.resolve("objects"),
                    "jclouds.identity=unused",
                    "jclouds.credential=unused", ""));
            // Without a configuration, logback logs every request at DEBUG.
            Files.writeString(dir.resolve("logback.xml"), """
                    <configuration>
                      <appender name="out" class="ch.qos.logback.core.ConsoleAppender">
                        <encoder><pattern>%d{HH:mm:ss.SSS} %-5level %logger{36} - %msg%n</pattern></encoder>
                      </appender>
                      <root level="WARN"><appender-ref ref="out"/></root>
                    </configuration>
                    """);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        S3Proxy proxy = new S3Proxy(settings, dir, registry, port);
        proxy.launch();
        return proxy;
    }

    public String endpoint() {
        return "http://" + FreePorts.LOOPBACK + ":" + port;
    }

    /** Stops the server and starts it again on the same port with the same objects: an outage of the object store. */
    public synchronized void restart() {
        stop();
        startAgain();
    }

    /** Stops the server (its port refuses connections) until {@link #startAgain()}. */
    public synchronized void stop() {
        end();
    }

    /** Starts a stopped server again, on the same port with the same objects; nothing happens if it runs. */
    public synchronized void startAgain() {
        if (!process.isAlive()) {
            launch();
        }
    }

    @Override
    public synchronized void close() {
        end();
    }

    private void end() {
        if (process.stop()) {
            archive.keep();   // written as the server exited, the first time
        }
    }

    private synchronized void launch() {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        String classpath = MavenClasspath.resolve(COORDINATES);
        // Started beside the broker and the augmentation, its classes from an archive save it about half its CPU.
        archive = ClassArchive.of("s3proxy", java, JVM_OPTIONS, classpath);
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.addAll(JVM_OPTIONS);
        command.addAll(archive.options());
        command.add("-Dlogback.configurationFile=" + dir.resolve("logback.xml"));
        command.addAll(List.of("-cp", classpath, "org.gaul.s3proxy.Main",
                "--properties", dir.resolve("s3proxy.conf").toString()));
        process = ChildProcess.start("s3proxy", command, dir, dir.resolve("s3proxy.log"), registry);
        try {
            FreePorts.await("s3proxy", process, settings.startTimeout(), () -> FreePorts.accepts(port));
        } catch (RuntimeException e) {
            process.close();
            throw e;
        }
    }
}
