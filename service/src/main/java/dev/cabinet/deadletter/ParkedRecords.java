package dev.cabinet.deadletter;

import dev.cabinet.eventlog.LogReaders;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import io.smallrye.common.annotation.Identifier;

/**
 * Reads parked records back from their topic by position, for an operator's retry. The topics keep events forever, so
 * a parked record is always there; a short-lived consumer with assigned partitions (no group) reads them.
 */
@ApplicationScoped
class ParkedRecords {

    private static final Duration READ_LIMIT = Duration.ofSeconds(15);

    private final Map<String, Object> kafkaConfig;

    ParkedRecords(@Identifier("default-kafka-broker") Map<String, Object> kafkaConfig) {
        this.kafkaConfig = kafkaConfig;
    }

    /** The records at these offsets of one partition, in offset order; blocking (operator requests run on workers). */
    List<ConsumerRecord<String, byte[]>> read(String topic, int partition, List<Long> offsets) {
        TreeSet<Long> wanted = new TreeSet<>(offsets);
        Map<Long, ConsumerRecord<String, byte[]>> found = new LinkedHashMap<>();
        TopicPartition source = new TopicPartition(topic, partition);
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(consumerConfig(), new StringDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.assign(List.of(source));
            consumer.seek(source, wanted.first());
            long deadline = System.nanoTime() + READ_LIMIT.toNanos();
            while (found.size() < wanted.size() && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200)).records(source)) {
                    if (wanted.contains(record.offset())) {
                        found.put(record.offset(), record);
                    }
                }
                if (consumer.position(source) > wanted.last()) {
                    break;
                }
            }
        }
        if (found.size() < wanted.size()) {
            wanted.removeAll(found.keySet());
            throw new IllegalStateException("the log no longer holds " + topic + "-" + partition + " offsets " + wanted
                    + " (has the topic's retention been changed?)");
        }
        return wanted.stream().map(found::get).toList();
    }

    private Map<String, Object> consumerConfig() {
        return LogReaders.consumerConfig(kafkaConfig, "cabinet-parked-records");
    }
}
