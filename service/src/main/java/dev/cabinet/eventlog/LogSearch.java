package dev.cabinet.eventlog;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.utils.Utils;

import io.smallrye.common.annotation.Identifier;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;

/**
 * Reads the log to learn whether an event whose sends failed was written after all: the records of its key's partition
 * from the time it was first sent to the partition's end, looking for its CloudEvents id. Rare (only for an event whose
 * outcome a client asks after and the producer could not tell), so it uses a short-lived consumer of its own.
 */
@ApplicationScoped
public class LogSearch {

    private static final Duration CALL = Duration.ofSeconds(3);
    private static final Duration SEARCH = Duration.ofSeconds(10);
    /** Producer and broker clocks may differ a little: the search starts this much before the first send. */
    private static final Duration CLOCK_SLACK = Duration.ofSeconds(5);

    private final Map<String, Object> kafkaConfig;

    LogSearch(@Identifier("default-kafka-broker") Map<String, Object> kafkaConfig) {
        this.kafkaConfig = kafkaConfig;
    }

    /** The event's position, or empty when the whole range was read without it; fails if the log cannot be read. */
    public Uni<Optional<LogPosition>> find(String topic, String key, String eventId, Instant sentAt) {
        return Uni.createFrom().item(() -> search(topic, key, eventId, sentAt))
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }

    private Optional<LogPosition> search(String topic, String key, String eventId, Instant sentAt) {
        Map<String, Object> config = new HashMap<>();
        kafkaConfig.forEach((name, value) -> {
            if (ConsumerConfig.configNames().contains(name)) {
                config.put(name, value);
            }
        });
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) CALL.toMillis());
        config.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) CALL.toMillis());
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            int partitions = consumer.partitionsFor(topic, CALL).size();
            // The producer's default partitioner, which the event log uses: the same key always lands here.
            TopicPartition partition = new TopicPartition(topic,
                    Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions);
            consumer.assign(List.of(partition));
            long end = consumer.endOffsets(List.of(partition), CALL).get(partition);
            OffsetAndTimestamp start = consumer.offsetsForTimes(
                    Map.of(partition, sentAt.minus(CLOCK_SLACK).toEpochMilli()), CALL).get(partition);
            if (start == null) {
                return Optional.empty();   // no record at all since then
            }
            consumer.seek(partition, start.offset());
            long deadline = System.nanoTime() + SEARCH.toNanos();
            while (consumer.position(partition, CALL) < end) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the log search for event " + eventId + " did not finish in time");
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    Header id = record.headers().lastHeader(CloudEventHeaders.ID);
                    if (id != null && eventId.equals(new String(id.value(), StandardCharsets.UTF_8))) {
                        return Optional.of(new LogPosition(topic, partition.partition(), record.offset()));
                    }
                }
            }
            return Optional.empty();
        }
    }
}
