package dev.cabinet.devservices.launcher;

import java.io.File;
import java.util.List;
import java.util.stream.Collectors;

import org.eclipse.aether.artifact.DefaultArtifact;
import org.eclipse.aether.graph.Dependency;
import org.eclipse.aether.resolution.ArtifactResult;

import io.quarkus.bootstrap.resolver.maven.BootstrapMavenException;
import io.quarkus.bootstrap.resolver.maven.MavenArtifactResolver;

/**
 * The classpath of a Java server the Dev Services run in a child JVM (the Kafka broker, s3proxy), resolved through
 * Quarkus's own Maven resolver: it honours the user's settings.xml and local repository, needs no earlier
 * {@code install}, and keeps the server's jars off the application's classpath.
 */
public final class MavenClasspath {

    /** Kafka 4.x logs through slf4j 1.7; a simple binding writes the broker's log to its stdout (our log file). */
    private static final String KAFKA_LOGGING_BINDING = "org.slf4j:slf4j-simple:1.7.36";

    private MavenClasspath() {
    }

    static String kafka(String kafkaVersion) {
        return resolve("org.apache.kafka:kafka_2.13:" + kafkaVersion, KAFKA_LOGGING_BINDING);
    }

    /** Resolved once per JVM: a restarted server needs no second resolution. */
    private static final java.util.Map<String, String> RESOLVED = new java.util.concurrent.ConcurrentHashMap<>();

    /** The artifact's jars with its runtime dependencies, and the extra artifacts given. */
    public static String resolve(String coordinates, String... extra) {
        return RESOLVED.computeIfAbsent(coordinates + " " + String.join(" ", extra),
                key -> resolveNow(coordinates, extra));
    }

    private static String resolveNow(String coordinates, String... extra) {
        try {
            MavenArtifactResolver resolver = MavenArtifactResolver.builder().setWorkspaceDiscovery(false).build();
            List<Dependency> added = java.util.Arrays.stream(extra)
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
