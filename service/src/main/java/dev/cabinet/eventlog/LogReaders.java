package dev.cabinet.eventlog;

import java.util.HashMap;
import java.util.Map;

import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * The configuration of the clients that look at the log outside any consumer group: a consumer that reads records by
 * position, and an admin client that asks where partitions end and how many a topic has.
 */
public final class LogReaders {

    private LogReaders() {
    }

    /**
     * The broker's connection settings from the connector's {@code default-kafka-broker} map (not its own {@code mp.}
     * or Dev Services keys), with no group, no commits, and no topic created by reading it.
     */
    public static Map<String, Object> consumerConfig(Map<String, Object> kafkaConfig, String clientId) {
        Map<String, Object> config = new HashMap<>();
        kafkaConfig.forEach((name, value) -> {
            if (!name.startsWith("mp.") && !name.contains("devservices")) {
                config.put(name, value);
            }
        });
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 500);
        config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        return config;
    }

    /** The broker's connection settings an admin client knows, answering within 5 s. */
    public static Map<String, Object> adminConfig(Map<String, Object> kafkaConfig, String clientId) {
        Map<String, Object> config = new HashMap<>();
        kafkaConfig.forEach((name, value) -> {
            if (AdminClientConfig.configNames().contains(name)) {
                config.put(name, value);
            }
        });
        config.put(AdminClientConfig.CLIENT_ID_CONFIG, clientId);
        config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5000);
        return config;
    }
}
