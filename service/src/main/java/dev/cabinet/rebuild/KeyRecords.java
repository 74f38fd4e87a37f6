package dev.cabinet.rebuild;

import dev.cabinet.eventlog.KeyPartitions;
import dev.cabinet.eventlog.LogReaders;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import io.smallrye.common.annotation.Identifier;

/**
 * Reads one key's records from the partition its key hashes to (the producer's default partitioner, which the event
 * log uses), from an offset up to the partition's end as it was when the read began. Each read walks that part of the
 * partition: an operator's tool, not a query. A short-lived consumer with an assigned partition and no group.
 */
@ApplicationScoped
class KeyRecords {

    private static final Duration READ_LIMIT = Duration.ofSeconds(60);
    private static final Duration CALL = Duration.ofSeconds(10);

    private final Map<String, Object> kafkaConfig;

    KeyRecords(@Identifier("default-kafka-broker") Map<String, Object> kafkaConfig) {
        this.kafkaConfig = kafkaConfig;
    }

    /** The key's records between {@code from} and {@code end} (exclusive), in log order. */
    record Slice(int partition, long end, List<ConsumerRecord<String, byte[]>> records) {
    }

    /** The key's records from {@code from} to the partition's end now; blocking (operator requests run on workers). */
    Slice read(String topic, String key, long from) {
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(consumerConfig(), new StringDeserializer(),
                new ByteArrayDeserializer())) {
            int partition = KeyPartitions.of(key, consumer.partitionsFor(topic, CALL).size());
            TopicPartition source = new TopicPartition(topic, partition);
            consumer.assign(List.of(source));
            long end = consumer.endOffsets(List.of(source), CALL).get(source);
            long start = Math.max(from, consumer.beginningOffsets(List.of(source), CALL).get(source));
            List<ConsumerRecord<String, byte[]>> found = new ArrayList<>();
            if (start >= end) {
                return new Slice(partition, end, found);
            }
            consumer.seek(source, start);
            long deadline = System.nanoTime() + READ_LIMIT.toNanos();
            while (consumer.position(source, CALL) < end) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("reading " + topic + "-" + partition + " up to offset " + end
                            + " took longer than " + READ_LIMIT.toSeconds() + " s");
                }
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200)).records(source)) {
                    if (record.offset() < end && key.equals(record.key())) {
                        found.add(record);
                    }
                }
            }
            return new Slice(partition, end, found);
        }
    }

    private Map<String, Object> consumerConfig() {
        return LogReaders.consumerConfig(kafkaConfig, "cabinet-stream-rebuild");
    }
}
