package dev.cabinet.devservices.launcher;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import org.eclipse.aether.artifact.DefaultArtifact;
import org.eclipse.aether.graph.Dependency;
import org.eclipse.aether.resolution.ArtifactResult;
import org.jboss.logging.Logger;

import io.quarkus.bootstrap.resolver.maven.BootstrapMavenException;
import io.quarkus.bootstrap.resolver.maven.MavenArtifactResolver;

/**
 * The classpath of a Java server the Dev Services run in a child JVM (the Kafka broker, s3proxy), resolved through
 * Quarkus's own Maven resolver: it honours the user's settings.xml and local repository, needs no earlier
 * {@code install}, and keeps the server's jars off the application's classpath.
 */
public final class MavenClasspath {

    private static final Logger LOG = Logger.getLogger(MavenClasspath.class);
    /** Kafka 4.x logs through slf4j 1.7; a simple binding writes the broker's log to its stdout (our log file). */
    private static final String KAFKA_LOGGING_BINDING = "org.slf4j:slf4j-simple:1.7.36";
    /** Resolved once per JVM: a restarted server needs no second resolution. */
    private static final Map<String, String> RESOLVED = new ConcurrentHashMap<>();

    private MavenClasspath() {
    }

    static String kafka(String kafkaVersion) {
        return resolve("org.apache.kafka:kafka_2.13:" + kafkaVersion, KAFKA_LOGGING_BINDING);
    }

    /**
     * The artifact's jars with its runtime dependencies, and the extra artifacts given: as resolved before for the same
     * coordinates (kept in the user cache), or resolved now.
     */
    public static String resolve(String coordinates, String... extra) {
        String key = coordinates + " " + String.join(" ", extra);
        return RESOLVED.computeIfAbsent(key, k -> cached(k, UserCache.FOLDER, () -> resolveNow(coordinates, extra)));
    }

    /**
     * The classpath kept under {@code cache} for these coordinates while every jar it names is still there, else
     * {@code resolve}'s, kept for the next JVM. Fixed versions resolve to the same jars each time; reading their
     * POMs again took 1.2 s on an idle machine (0.1 s read back, {@code MavenClasspathTest}) before the broker
     * started.
     */
    static String cached(String coordinates, Path cache, Supplier<String> resolve) {
        Path entry = cache.resolve(UserCache.entry("classpath", coordinates.getBytes(StandardCharsets.UTF_8)) + ".txt");
        Optional<String> kept = read(entry);
        if (kept.isPresent()) {
            return kept.get();
        }
        String classpath = resolve.get();
        if (UserCache.keepsFor(classpath)) {
            try {
                WholeFiles.write(entry, classpath.getBytes(StandardCharsets.UTF_8));
            } catch (IOException e) {
                LOG.debugf(e, "could not keep the classpath of %s in %s", coordinates, entry);
            }
        }
        return classpath;
    }

    private static Optional<String> read(Path entry) {
        if (!Files.isRegularFile(entry)) {
            return Optional.empty();
        }
        try {
            String classpath = Files.readString(entry, StandardCharsets.UTF_8).trim();
            boolean complete = !classpath.isEmpty() && Arrays.stream(classpath.split(File.pathSeparator))
                    .allMatch(jar -> Files.isRegularFile(Path.of(jar)));
            return complete ? Optional.of(classpath) : Optional.empty();
        } catch (IOException | InvalidPathException unreadable) {
            return Optional.empty();
        }
    }

    private static String resolveNow(String coordinates, String... extra) {
        try {
            MavenArtifactResolver resolver = MavenArtifactResolver.builder().setWorkspaceDiscovery(false).build();
            List<Dependency> added = Arrays.stream(extra)
                    .map(artifact -> new Dependency(new DefaultArtifact(artifact), "runtime"))
                    .toList();
            List<ArtifactResult> results = resolver.resolveDependencies(new DefaultArtifact(coordinates), added)
                    .getArtifactResults();
            return results.stream()
                    .map(result -> result.getArtifact().getFile().getAbsolutePath())
                    .collect(Collectors.joining(File.pathSeparator));
        } catch (BootstrapMavenException e) {
            throw new IllegalStateException("could not resolve " + coordinates + " from your Maven repositories: "
                    + e.getMessage(), e);
        }
    }
}
