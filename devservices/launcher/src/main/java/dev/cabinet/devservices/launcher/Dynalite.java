package dev.cabinet.devservices.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jboss.logging.Logger;

/**
 * dynalite (the MIT-licensed DynamoDB emulator) in a child Node process, in memory, on a free loopback port. Its npm
 * package is installed once with {@code npm ci} from the package.json and package-lock.json this extension ships, into a
 * per-user cache folder named after the lockfile's hash.
 */
public final class Dynalite implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(Dynalite.class);
    private static final String RESOURCES = "/dev/cabinet/devservices/dynalite/";
    private static final List<String> MANIFESTS = List.of("package.json", "package-lock.json");
    /** Keeps dynalite up when a client dies mid-request (see the file). */
    private static final String GUARD = "survive-aborted-requests.js";

    private final ChildProcess process;
    private final int port;

    private Dynalite(ChildProcess process, int port) {
        this.process = process;
        this.port = port;
    }

    public static Dynalite start(LaunchSettings settings, Path stateDir, OrphanRegistry registry) {
        Path installDir = install(settings);
        int port = FreePorts.pick();
        Path guard = stateDir.resolve(GUARD);
        try {
            Files.createDirectories(stateDir);
            Files.write(guard, resource(GUARD));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> command = List.of(settings.nodeCommand(), "--require", guard.toString(),
                installDir.resolve("node_modules/dynalite/cli.js").toString(),
                "--host", FreePorts.LOOPBACK, "--port", Integer.toString(port),
                // Tables become ACTIVE at once instead of after dynalite's default 500 ms.
                "--createTableMs", "0", "--deleteTableMs", "0", "--updateTableMs", "0");
        ChildProcess process = ChildProcess.start("dynalite", command, installDir, stateDir.resolve("dynalite-" + port + ".log"),
                registry);
        Dynalite dynalite = new Dynalite(process, port);
        try {
            FreePorts.await("dynalite", process, settings.startTimeout(), () -> FreePorts.accepts(port));
            return dynalite;
        } catch (RuntimeException e) {
            dynalite.close();
            throw e;
        }
    }

    public String endpoint() {
        return "http://" + FreePorts.LOOPBACK + ":" + port;
    }

    /** Freezes the process (SIGSTOP): connections hang and calls time out, as with a store that stopped answering. */
    public void pause() {
        process.signal("STOP");
    }

    /** Lets a paused process run again (SIGCONT), with all its data. */
    public void resume() {
        process.signal("CONT");
    }

    @Override
    public void close() {
        process.close();
    }

    private static Path install(LaunchSettings settings) {
        byte[] lock = resource("package-lock.json");
        Path cache = Path.of(System.getProperty("user.home"), ".cache", "cabinet");
        Path target = cache.resolve("dynalite-" + sha256(lock).substring(0, 16));
        if (Files.isRegularFile(target.resolve("node_modules/dynalite/cli.js"))) {
            return target;
        }
        LOG.infof("Installing dynalite with npm ci into %s (once per lockfile)", target);
        try {
            Files.createDirectories(cache);
            // Install beside the target and move it into place, so a concurrent JVM never sees half an install.
            Path staging = Files.createTempDirectory(cache, "dynalite-install-");
            for (String name : MANIFESTS) {
                Files.write(staging.resolve(name), resource(name));
            }
            runNpmCi(settings, staging);
            try {
                Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (FileAlreadyExistsException | AtomicMoveNotSupportedException e) {
                LOG.debugf("another process installed dynalite first into %s", target);
            }
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("could not install dynalite into " + target, e);
        }
    }

    private static void runNpmCi(LaunchSettings settings, Path dir) throws IOException {
        Path log = dir.resolve("npm-ci.log");
        Process npm = new ProcessBuilder(settings.npmCommand(), "ci", "--ignore-scripts", "--no-audit", "--no-fund")
                .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            Duration timeout = settings.startTimeout().multipliedBy(2);
            if (!npm.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                npm.destroyForcibly();
                throw new IllegalStateException("npm ci for dynalite did not finish within " + timeout);
            }
        } catch (InterruptedException e) {
            npm.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while installing dynalite", e);
        }
        if (npm.exitValue() != 0) {
            throw new IllegalStateException("npm ci for dynalite failed (is Node.js 20+ with npm on PATH?):\n"
                    + Files.readString(log));
        }
    }

    private static byte[] resource(String name) {
        try (InputStream in = Dynalite.class.getResourceAsStream(RESOURCES + name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + RESOURCES + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
