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
    private static final Duration POLL = Duration.ofMillis(200);
    /** Producer and broker clocks may differ a little: the search starts this much before the first send. */
    private static final Duration CLOCK_SLACK = Duration.ofSeconds(5);

    private final Map<String, Object> consumerConfig = new HashMap<>();
    private final ExecutorService searcher = Executors.newSingleThreadExecutor(task -> {
        Thread thread = new Thread(task, "cabinet-log-search");
        thread.setDaemon(true);
        return thread;
    });
    /**
     * Created at the first search and used only by the searcher thread (a KafkaConsumer is single-threaded; its one
     * thread-safe method, {@code wakeup}, ends a search in progress at shutdown).
     */
    private volatile KafkaConsumer<byte[], byte[]> consumer;

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

    /**
     * The event's position, or empty when the whole range was read without it; fails if the log cannot be read
     * {@code within} this time from now (the caller's deadline: a search it gave up never holds the searcher longer).
     */
    public Uni<Optional<LogPosition>> find(String topic, String key, String eventId, Instant sentAt, Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        return Uni.createFrom().item(() -> searchBefore(deadline, topic, key, eventId, sentAt))
                .runSubscriptionOn(searcher);
    }

    private Optional<LogPosition> searchBefore(long deadline, String topic, String key, String eventId,
            Instant sentAt) {
        if (System.nanoTime() >= deadline) {
            throw new TimeoutException("searches of the log are slow now (this one waited behind others)");
        }
        if (consumer == null) {
            consumer = new KafkaConsumer<>(consumerConfig, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        }
        try {
            return search(deadline, topic, key, eventId, sentAt);
        } catch (TimeoutException e) {
            throw e;   // the broker is slow or away: the consumer reconnects by itself, with backoff
        } catch (RuntimeException e) {
            closeConsumer();   // anything else may have left it unusable: the next search starts a new one
            throw e;
        }
    }

    private Optional<LogPosition> search(long deadline, String topic, String key, String eventId, Instant sentAt) {
        int partitions = consumer.partitionsFor(topic, callUntil(deadline)).size();
        // The producer's default partitioner, which the event log uses: the same key always lands here.
        TopicPartition partition = new TopicPartition(topic,
                Utils.toPositive(Utils.murmur2(key.getBytes(StandardCharsets.UTF_8))) % partitions);
        consumer.assign(List.of(partition));
        long end = consumer.endOffsets(List.of(partition), callUntil(deadline)).get(partition);
        OffsetAndTimestamp start = consumer.offsetsForTimes(
                Map.of(partition, sentAt.minus(CLOCK_SLACK).toEpochMilli()), callUntil(deadline)).get(partition);
        if (start == null) {
            return Optional.empty();   // no record at all since then
        }
        consumer.seek(partition, start.offset());
        while (consumer.position(partition, callUntil(deadline)) < end) {   // callUntil ends it at the deadline
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                Header id = record.headers().lastHeader(CloudEventHeaders.ID);
                if (id != null && eventId.equals(new String(id.value(), StandardCharsets.UTF_8))) {
                    return Optional.of(new LogPosition(topic, partition.partition(), record.offset()));
                }
            }
        }
        return Optional.empty();
    }

    /** One call's timeout: {@link #CALL}, or what is left before the deadline if that is less. */
    private static Duration callUntil(long deadline) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw new TimeoutException("the log search did not finish in time");
        }
        return Duration.ofNanos(Math.min(left, CALL.toNanos()));
    }

    private void closeConsumer() {
        if (consumer != null) {
            consumer.close(CloseOptions.timeout(Duration.ofSeconds(1)));
            consumer = null;
        }
    }

    @PreDestroy
    void close() throws InterruptedException {
        KafkaConsumer<byte[], byte[]> searching = consumer;
        if (searching != null) {
            searching.wakeup();   // a search in progress ends now (and closes the consumer) instead of at its deadline
        }
        searcher.execute(this::closeConsumer);
        searcher.shutdown();
        searcher.awaitTermination(3, TimeUnit.SECONDS);
    }
}
