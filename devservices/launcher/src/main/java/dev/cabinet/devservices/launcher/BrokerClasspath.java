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
 * The Kafka broker's classpath, resolved through Quarkus's own Maven resolver: it honours the user's settings.xml and
 * local repository, needs no earlier {@code install}, and keeps the broker's jars off the application's classpath.
 */
final class BrokerClasspath {

    /** Kafka 4.x logs through slf4j 1.7; a simple binding writes the broker's log to its stdout (our log file). */
    private static final String LOGGING_BINDING = "org.slf4j:slf4j-simple:1.7.36";

    private BrokerClasspath() {
    }

    static String resolve(String kafkaVersion) {
        try {
            MavenArtifactResolver resolver = MavenArtifactResolver.builder().setWorkspaceDiscovery(false).build();
            var broker = new DefaultArtifact("org.apache.kafka:kafka_2.13:" + kafkaVersion);
            var binding = new Dependency(new DefaultArtifact(LOGGING_BINDING), "runtime");
            List<ArtifactResult> results = resolver.resolveDependencies(broker, List.of(binding)).getArtifactResults();
            return results.stream()
                    .map(result -> result.getArtifact().getFile().getAbsolutePath())
                    .collect(Collectors.joining(File.pathSeparator));
        } catch (BootstrapMavenException e) {
            throw new IllegalStateException("could not resolve org.apache.kafka:kafka_2.13:" + kafkaVersion
                    + " from your Maven repositories: " + e.getMessage(), e);
        }
    }
}
