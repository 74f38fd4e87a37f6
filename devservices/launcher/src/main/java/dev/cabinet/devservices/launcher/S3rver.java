package dev.cabinet.devservices.launcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * s3rver (an MIT-licensed S3-compatible server in Node) in a child process on a free loopback port, path-style only,
 * with the given bucket created before it listens. Objects live in files under the state folder, so a restart on the
 * same port keeps them, as Amazon S3 keeps them through an outage. Its npm package is installed once by
 * {@link NpmPackages}.
 */
public final class S3rver implements AutoCloseable {

    /** The one key pair s3rver knows (its built-in account): requests signed with any other key are refused. */
    public static final String ACCESS_KEY = "S3RVER";
    public static final String SECRET_KEY = "S3RVER";

    private static final String ENTRY = "node_modules/s3rver/bin/s3rver.js";

    private final LaunchSettings settings;
    private final Path stateDir;
    private final OrphanRegistry registry;
    private final String bucket;
    private final int port;
    private ChildProcess process;

    private S3rver(LaunchSettings settings, Path stateDir, OrphanRegistry registry, String bucket, int port) {
        this.settings = settings;
        this.stateDir = stateDir;
        this.registry = registry;
        this.bucket = bucket;
        this.port = port;
    }

    public static S3rver start(LaunchSettings settings, Path stateDir, OrphanRegistry registry, String bucket) {
        S3rver s3rver = new S3rver(settings, stateDir, registry, bucket, FreePorts.pick());
        s3rver.launch();
        return s3rver;
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
        process.close();
    }

    /** Starts a stopped server again, on the same port with the same objects; nothing happens if it runs. */
    public synchronized void startAgain() {
        if (!process.isAlive()) {
            launch();
        }
    }

    @Override
    public synchronized void close() {
        process.close();
    }

    private synchronized void launch() {
        Path installDir = NpmPackages.install(settings, "s3rver", ENTRY);
        Path data = stateDir.resolve("s3rver-" + port);
        try {
            Files.createDirectories(data);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> command = List.of(settings.nodeCommand(), installDir.resolve(ENTRY).toString(),
                "--directory", data.toString(), "--address", FreePorts.LOOPBACK, "--port", Integer.toString(port),
                // Path-style only: a bucket is never looked for in the Host header.
                "--no-vhost-buckets", "--silent", "--configure-bucket", bucket);
        process = ChildProcess.start("s3rver", command, installDir, stateDir.resolve("s3rver-" + port + ".log"),
                registry);
        try {
            // The bucket is configured before the server listens: accepting connections means the bucket exists.
            FreePorts.await("s3rver", process, settings.startTimeout(), () -> FreePorts.accepts(port));
        } catch (RuntimeException e) {
            process.close();
            throw e;
        }
    }
}
