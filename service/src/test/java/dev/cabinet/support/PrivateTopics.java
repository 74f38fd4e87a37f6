package dev.cabinet.support;

import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.ConfigProvider;

import dev.cabinet.shared.Ids;

/** Topics of a test's own on the test broker: no consumer of Cabinet's reads them, so only the test sees its records. */
public final class PrivateTopics {

    private PrivateTopics() {
    }

    /** A new topic named {@code prefix} and a fresh id, with {@code partitions} partitions, created before it returns. */
    public static String create(String prefix, int partitions) throws Exception {
        String topic = prefix + "-" + Ids.newId().toLowerCase();
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
        }
        return topic;
    }

    /** A producer of string keys and values to the test broker, for a test to write its own records with. */
    public static KafkaProducer<String, String> producer() {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()),
                new StringSerializer(), new StringSerializer());
    }

    /** The test broker's address, as the application is configured with it. */
    private static String bootstrapServers() {
        return ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class);
    }
}
