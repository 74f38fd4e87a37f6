package dev.cabinet.devservices.deployment;

import java.time.Duration;
import java.util.List;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

import dev.cabinet.devservices.launcher.IndexLag;
import dev.cabinet.devservices.launcher.LaunchSettings;

/** What the Dev Services should start (and the bucket s3proxy creates), read from the application's configuration (all keys under {@code cabinet.devservices}). */
record DevServicesSettings(
        boolean startKafka,
        KafkaMode kafkaMode,
        boolean startDynalite,
        boolean startS3Proxy,
        String bucket,
        List<String> topics,
        int partitions,
        String kafkaVersion,
        String brokerJvmOptions,
        String nodeCommand,
        String npmCommand,
        Duration startTimeout,
        IndexLag gsiLag,
        Integer itemWriteLimit,
        Integer partitionReadLimit) {

    static final String KAFKA_BOOTSTRAP = "kafka.bootstrap.servers";
    static final String DYNAMODB_ENDPOINT = "quarkus.dynamodb.endpoint-override";
    static final String KAFKA_MODE = "cabinet.devservices.kafka";
    static final String S3_ENDPOINT = "quarkus.s3.endpoint-override";
    static final String GSI_LAG = "cabinet.devservices.dynamodb.gsi-lag";
    static final String ITEM_WRITE_LIMIT = "cabinet.devservices.dynamodb.item-write-limit";
    static final String PARTITION_READ_LIMIT = "cabinet.devservices.dynamodb.partition-read-limit";

    /** How the broker is provided: a child JVM (the default, no Docker) or a Testcontainers container. */
    enum KafkaMode {
        LAUNCHER, TESTCONTAINERS;

        static KafkaMode of(String value) {
            for (KafkaMode mode : values()) {
                if (mode.name().equalsIgnoreCase(value.trim())) {
                    return mode;
                }
            }
            throw new IllegalArgumentException(KAFKA_MODE + " must be launcher or testcontainers, not '" + value + "'");
        }
    }

    static DevServicesSettings fromConfig() {
        Config config = ConfigProvider.getConfig();
        boolean enabled = config.getOptionalValue("cabinet.devservices.enabled", Boolean.class).orElse(true);
        return new DevServicesSettings(
                enabled && config.getOptionalValue(KAFKA_BOOTSTRAP, String.class).isEmpty(),
                KafkaMode.of(config.getOptionalValue(KAFKA_MODE, String.class).orElse("launcher")),
                enabled && config.getOptionalValue(DYNAMODB_ENDPOINT, String.class).isEmpty(),
                enabled && config.getOptionalValue(S3_ENDPOINT, String.class).isEmpty(),
                config.getOptionalValue("cabinet.files.bucket", String.class).orElse("cabinet-files"),
                config.getOptionalValues("cabinet.devservices.kafka.topics", String.class).orElse(List.of()),
                config.getOptionalValue("cabinet.devservices.kafka.partitions", Integer.class).orElse(6),
                config.getOptionalValue("cabinet.devservices.kafka.version", String.class).orElse("4.1.2"),
                config.getOptionalValue("cabinet.devservices.kafka.jvm-options", String.class)
                        .orElse("-Xms64m -Xmx512m -XX:+UseSerialGC -XX:TieredStopAtLevel=1"),
                config.getOptionalValue("cabinet.devservices.dynalite.node", String.class).orElse("node"),
                config.getOptionalValue("cabinet.devservices.dynalite.npm", String.class).orElse("npm"),
                config.getOptionalValue("cabinet.devservices.start-timeout", Duration.class).orElse(Duration.ofSeconds(90)),
                gsiLag(config.getOptionalValue(GSI_LAG, String.class).orElse("0")),
                config.getOptionalValue(ITEM_WRITE_LIMIT, Integer.class).orElse(null),
                config.getOptionalValue(PARTITION_READ_LIMIT, Integer.class).orElse(null));
    }

    private static IndexLag gsiLag(String value) {
        try {
            return IndexLag.parse(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(GSI_LAG + ": " + e.getMessage(), e);
        }
    }

    /** Whether dynalite is to refuse keys past a rate, as DynamoDB throttles a hot partition. */
    boolean throttles() {
        return itemWriteLimit != null || partitionReadLimit != null;
    }

    LaunchSettings launch() {
        return new LaunchSettings(kafkaVersion, brokerJvmOptions, nodeCommand, npmCommand, startTimeout);
    }

    boolean startsAnything() {
        return startKafka || startDynalite || startS3Proxy;
    }
}
