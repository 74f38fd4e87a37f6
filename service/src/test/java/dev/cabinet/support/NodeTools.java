package dev.cabinet.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * npm tools the tests run with the machine's Node.js: installed with {@code npm ci} from a package.json and
 * package-lock.json committed under src/test/resources, once per lockfile, into the same per-user cache as dynalite.
 * A missing Node.js fails the test that needs it: CI installs Node.js, so a skip would hide a broken build.
 */
public final class NodeTools {

    private static final Duration TIMEOUT = Duration.ofMinutes(3);

    private NodeTools() {
    }

    /** The folder holding {@code node_modules} for the manifests in {@code manifests} (package.json, lockfile). */
    public static Path install(Path manifests) throws Exception {
        byte[] lock = Files.readAllBytes(manifests.resolve("package-lock.json"));
        String hash = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(lock)).substring(0, 16);
        Path cache = Path.of(System.getProperty("user.home"), ".cache", "cabinet");
        Path target = cache.resolve(manifests.getFileName() + "-" + hash);
        if (Files.isDirectory(target.resolve("node_modules"))) {
            return target;
        }
        Files.createDirectories(cache);
        // Installed beside the target and moved into place, so a concurrent build never sees half an install.
        Path staging = Files.createTempDirectory(cache, manifests.getFileName() + "-install-");
        for (String name : List.of("package.json", "package-lock.json", ".npmrc")) {
            if (Files.exists(manifests.resolve(name))) {
                Files.copy(manifests.resolve(name), staging.resolve(name));
            }
        }
        Result npm = run(staging, List.of("npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund"), null);
        if (npm.exit() != 0) {
            throw new IllegalStateException("npm ci in " + staging + " failed:\n" + npm.stdout() + npm.stderr());
        }
        try {
            Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            // Another build installed it first (a rename onto its non-empty folder fails "Directory not empty"):
            // theirs is as good, once complete.
            if (!Files.isDirectory(target.resolve("node_modules"))) {
                throw e;
            }
            try (var paths = Files.walk(staging)) {
                for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(path);
                }
            }
        }
        return target;
    }

    /** A command's exit code and its output. */
    public record Result(int exit, String stdout, String stderr) {
    }

    /** Runs {@code command} in {@code dir}, with {@code input} on its stdin if not null. */
    public static Result run(Path dir, List<String> command, String input) throws Exception {
        Path stdout = Files.createTempFile("cabinet-node-", ".out");
        Path stderr = Files.createTempFile("cabinet-node-", ".err");
        Process process;
        try {
            process = new ProcessBuilder(new ArrayList<>(command)).directory(dir.toFile())
                    .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        } catch (IOException e) {
            throw new IllegalStateException(command.get(0) + " is not on PATH: Node.js 20+ with npm is required "
                    + "(README: Prerequisites)", e);
        }
        try (var stdin = process.getOutputStream()) {
            if (input != null) {
                stdin.write(input.getBytes(StandardCharsets.UTF_8));
            }
        }
        if (!process.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " did not finish within " + TIMEOUT);
        }
        Result result = new Result(process.exitValue(), Files.readString(stdout), Files.readString(stderr));
        Files.delete(stdout);
        Files.delete(stderr);
        return result;
    }
}
