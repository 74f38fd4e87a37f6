package dev.cabinet.devservices.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jboss.logging.Logger;

/**
 * Installs a Node tool of the Dev Services with {@code npm ci} from the package.json and package-lock.json this extension
 * ships under {@code /dev/cabinet/devservices/<name>/}, once, into a per-user cache folder named after the lockfile's
 * hash (the lockfile holds no download addresses: npm takes them from its own configuration).
 */
final class NpmPackages {

    private static final Logger LOG = Logger.getLogger(NpmPackages.class);
    private static final List<String> MANIFESTS = List.of("package.json", "package-lock.json");

    private NpmPackages() {
    }

    /** The install folder of tool {@code name}, installed first if {@code entry} (a path inside it) is missing. */
    static Path install(LaunchSettings settings, String name, String entry) {
        byte[] lock = resource(name, "package-lock.json");
        Path cache = UserCache.FOLDER;
        Path target = cache.resolve(UserCache.entry(name, lock));
        if (Files.isRegularFile(target.resolve(entry))) {
            return target;
        }
        LOG.infof("Installing %s with npm ci into %s (once per lockfile)", name, target);
        try {
            Files.createDirectories(cache);
            // Install beside the target and move it into place, so a concurrent JVM never sees half an install.
            Path staging = Files.createTempDirectory(cache, name + "-install-");
            for (String manifest : MANIFESTS) {
                Files.write(staging.resolve(manifest), resource(name, manifest));
            }
            try {
                runNpmCi(settings, name, staging);
                moveIntoPlace(staging, target, entry);
            } finally {
                StaleState.deleteTree(staging);   // gone after a move; what is left of a failed or beaten install
            }
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("could not install " + name + " into " + target, e);
        }
    }

    /**
     * Moves a finished install to its place, unless another process put one there first (two JVMs starting on an empty
     * cache): on Linux, renaming onto its non-empty folder fails with "Directory not empty", a plain
     * {@link java.nio.file.FileSystemException}, not {@link java.nio.file.FileAlreadyExistsException}. Theirs is as
     * good, once its {@code entry} is there.
     */
    static void moveIntoPlace(Path staging, Path target, String entry) throws IOException {
        try {
            Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            if (!Files.isRegularFile(target.resolve(entry))) {
                throw e;
            }
            LOG.debugf("another process installed %s first", target);
        }
    }

    /** A file shipped beside tool {@code name}'s manifests. */
    static byte[] resource(String name, String file) {
        String path = "/dev/cabinet/devservices/" + name + "/" + file;
        try (InputStream in = NpmPackages.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + path);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void runNpmCi(LaunchSettings settings, String name, Path dir) throws IOException {
        Path log = dir.resolve("npm-ci.log");
        Process npm = new ProcessBuilder(settings.npmCommand(), "ci", "--ignore-scripts", "--no-audit", "--no-fund")
                .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            Duration timeout = settings.startTimeout().multipliedBy(2);
            if (!npm.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                npm.destroyForcibly();
                // The log goes with the staging folder: its tail says what npm was waiting for (a registry, a proxy).
                throw new IllegalStateException("npm ci for " + name + " did not finish within " + timeout
                        + "; its output ended with:\n" + LogFiles.tail(log, 30));
            }
        } catch (InterruptedException e) {
            npm.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while installing " + name, e);
        }
        if (npm.exitValue() != 0) {
            throw new IllegalStateException("npm ci for " + name + " failed (is Node.js 20+ with npm on PATH?):\n"
                    + Files.readString(log));
        }
    }
}
