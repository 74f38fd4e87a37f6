package dev.cabinet.eventlog;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.utils.Utils;

import io.smallrye.common.annotation.Identifier;
import io.smallrye.mutiny.Uni;

/**
 * Reads the log to learn whether an event whose sends failed was written after all: the records of its key's partition
 * from the time it was first sent to the partition's end, looking for its CloudEvents id. One consumer, kept and used
 * by one thread: a consumer per search opened new connections per search, and clients asking after their commands
 * during a broker outage filled the broker's accept queue, so that the producer's own connection attempts were dropped
 * and the first commands after the resume waited seconds for it (docs/faults.md, seventh run).
 */
@ApplicationScoped
public class LogSearch {

    private static final Duration CALL = Duration.ofSeconds(3);
    private static final Duration SEARCH = Duration.ofSeconds(10);
    /** Producer and broker clocks may differ a little: the search starts this much before the first send. */
    private static final Duration CLOCK_SLACK = Duration.ofSeconds(5);
    /** A search that waited this long behind others is given up: its caller has answered "pending" by then. */
    private static final Duration QUEUED_AT_MOST = CALL;

    private final Map<String, Object> consumerConfig = new HashMap<>();
    private final ExecutorService searcher = Executors.newSingleThreadExecutor(task -> {
        Thread thread = new Thread(task, "cabinet-log-search");
        thread.setDaemon(true);
        return thread;
    });
    /** Created at the first search and touched only by the searcher thread (a KafkaConsumer is single-threaded). */
    private KafkaConsumer<byte[], byte[]> consumer;

    LogSearch(@Identifier("default-kafka-broker") Map<String, Object> kafkaConfig) {
        kafkaConfig.forEach((name, value) -> {
            if (ConsumerConfig.configNames().contains(name)) {
                consumerConfig.put(name, value);
            }
        });
        consumerConfig.remove(ConsumerConfig.GROUP_ID_CONFIG);
        consumerConfig.put(ConsumerConfig.CLIENT_ID_CONFIG, "cabinet-log-search");
        consumerConfig.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        consumerConfig.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) CALL.toMillis());
        consumerConfig.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) CALL.toMillis());
    }

    /** The event's position, or empty when the whole range was read without it; fails if the log cannot be read. */
    public Uni<Optional<LogPosition>> find(String topic, String key, String eventId, Instant sentAt) {
        long queuedAt = System.nanoTime();
        return Uni.createFrom().item(() -> searchUnlessStale(queuedAt, topic, key, eventId, sentAt))
                .runSubscriptionOn(searcher);
    }

    private Optional<LogPosition> searchUnlessStale(long queuedAt, String topic, String key, String eventId,
            Instant sentAt) {
        if (System.nanoTime() - queuedAt > QUEUED_AT_MOST.toNanos()) {
            throw new IllegalStateException("searches of the log are slow now (queued behind others)");
        }
        if (consumer == null) {
            consumer = new KafkaConsumer<>(consumerConfig, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        }
        try {
            return search(topic, key, eventId, sentAt);
        } catch (TimeoutException e) {
            throw e;   // the broker is slow or away: the consumer reconnects by itself, with backoff
        } catch (RuntimeException e) {
            closeConsumer();   // anything else may have left it unusable: the next search starts a new one
            throw e;
        }
    }

    private Optional<LogPosition> search(String topic, String key, String eventId, Instant sentAt) {
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

    private void closeConsumer() {
        if (consumer != null) {
            consumer.close(CloseOptions.timeout(Duration.ofSeconds(1)));
            consumer = null;
        }
    }

    @PreDestroy
    void close() throws InterruptedException {
        searcher.execute(this::closeConsumer);
        searcher.shutdown();
        searcher.awaitTermination(3, TimeUnit.SECONDS);
    }
}
