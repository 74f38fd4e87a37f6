package dev.cabinet.eventlog;

import static dev.cabinet.support.Api.awaitOk;
import static dev.cabinet.support.Api.createPost;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.register;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.Map;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.junit.jupiter.Testcontainers;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;

/**
 * {@code cabinet.devservices.kafka=testcontainers}: the Dev Services run the broker as a Testcontainers Kafka container
 * instead of the child JVM, and commands flow through it to the read model. Where Testcontainers finds no Docker
 * engine, JUnit reports this class as skipped with that reason, never as passed.
 */
@QuarkusTest
@TestProfile(TestcontainersKafkaTest.ContainerKafka.class)
@Testcontainers(disabledWithoutDocker = true)
class TestcontainersKafkaTest {

    /** The broker from Testcontainers; dynalite as always. */
    public static class ContainerKafka implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("cabinet.devservices.kafka", "testcontainers");
        }
    }

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;

    @Test
    void commandsReachTheReadModelThroughTheContainerBroker() {
        int port = Integer.parseInt(bootstrapServers.substring(bootstrapServers.lastIndexOf(':') + 1));
        long containersPublishingIt = DockerClientFactory.instance().client().listContainersCmd().exec().stream()
                .filter(c -> c.getImage().startsWith("apache/kafka:"))
                .filter(c -> Arrays.stream(c.getPorts())
                        .anyMatch(p -> p.getPublicPort() != null && p.getPublicPort() == port))
                .count();
        assertEquals(1, containersPublishingIt, "an apache/kafka container publishes " + bootstrapServers);

        String author = newUserId();
        register(author, "Container");
        String post = createPost(author, "Through a container");
        awaitOk("/posts/" + post).body("authorName", equalTo("Container"));
    }
}
