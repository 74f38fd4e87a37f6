package dev.cabinet.devservices.deployment;

import java.util.Map;

import org.jboss.logging.Logger;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The broker as a Testcontainers container ({@code cabinet.devservices.kafka=testcontainers}), for machines with a
 * Docker engine: the apache/kafka image of the same version the launcher runs, configured like the launched broker.
 */
final class TestcontainersKafka {

    private static final Logger LOG = Logger.getLogger(TestcontainersKafka.class);

    private TestcontainersKafka() {
    }

    /**
     * Starts the container; its bootstrap address and what stops it, or null where Testcontainers finds no Docker
     * engine. Not an error then: Quarkus augments a test's application when it loads the class, before JUnit asks
     * {@code @Testcontainers(disabledWithoutDocker = true)} (the same detection) and reports the test as skipped.
     */
    static Map.Entry<String, AutoCloseable> start(String kafkaVersion) {
        if (!DockerClientFactory.instance().isDockerAvailable()) {
            LOG.warnf("%s=testcontainers, but Testcontainers finds no Docker engine: no Kafka is started; tests that"
                    + " need it are skipped, and without Docker the default (launcher) runs the broker",
                    DevServicesSettings.KAFKA_MODE);
            return null;
        }
        KafkaContainer kafka = new KafkaContainer(DockerImageName.parse("apache/kafka").withTag(kafkaVersion))
                // as the launched broker: topics only as created up front, no wait before the first group join
                .withEnv("KAFKA_AUTO_CREATE_TOPICS_ENABLE", "false")
                .withEnv("KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS", "0");
        kafka.start();
        return RunningInfrastructure.child(kafka.getBootstrapServers(), kafka::stop);
    }
}
