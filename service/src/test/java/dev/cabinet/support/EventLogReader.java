package dev.cabinet.support;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.eclipse.microprofile.config.ConfigProvider;

/** Reads a topic from its beginning to its current end with a plain Kafka consumer, as any other consumer would. */
public final class EventLogReader {

    private EventLogReader() {
    }

    public static List<ConsumerRecord<String, byte[]>> recordsWithKey(String topic, String key) {
        return recordsWithKey(ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class), topic, key);
    }

    /** The same from the broker at {@code bootstrapServers}: for a test outside the application's JVM. */
    public static List<ConsumerRecord<String, byte[]>> recordsWithKey(String bootstrapServers, String topic,
            String key) {
        return readAll(bootstrapServers, topic).stream().filter(r -> key.equals(r.key())).collect(Collectors.toList());
    }

    public static List<ConsumerRecord<String, byte[]>> readAll(String topic) {
        return readAll(ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class), topic);
    }

    private static List<ConsumerRecord<String, byte[]>> readAll(String bootstrapServers, String topic) {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).collect(Collectors.toList());
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            List<ConsumerRecord<String, byte[]>> records = new ArrayList<>();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
            return records;
        }
    }

    public static String header(ConsumerRecord<String, byte[]> record, String name) {
        var header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
