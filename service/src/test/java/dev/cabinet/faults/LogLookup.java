package dev.cabinet.faults;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * What the event log holds for one key, read from the broker: how a careful client settles a command that got no answer
 * and whose retry (same Idempotency-Key, after the killed instance's reservation expired) was decided anew on a
 * projection that may already show the first attempt's effect (a second leave answers "not a member", a second delete
 * 404). The log is the truth the read model must converge to.
 */
final class LogLookup {

    /** One event of the key: its CloudEvents type and id, and its data. */
    record Event(String type, String id, JsonNode data) {
    }

    /** How long a lookup waits for the broker: the full schedule's longest freeze (60 s) and then some. */
    private static final Duration PATIENCE = Duration.ofSeconds(300);

    private final String bootstrapServers;
    private final ObjectMapper json = new ObjectMapper();

    LogLookup(String bootstrapServers) {
        this.bootstrapServers = bootstrapServers;
    }

    /**
     * The events of {@code key} on {@code topic} that {@code which} picks, in log order. A read the broker does not
     * answer (it may be frozen: the client settles commands while the faults go on) is made again until it does, up to
     * {@link #PATIENCE}; then the lookup fails, and with it the client's ledger.
     */
    List<Event> events(String topic, String key, Predicate<Event> which) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (true) {
            try {
                return readOnce(topic, key, which);
            } catch (KafkaException | LogNotReadException e) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the log of " + topic + " could not be read in "
                            + PATIENCE.toSeconds() + " s", e);
                }
                System.out.printf("  (the log of %s could not be read (%s); reading it again)%n", topic,
                        e.getMessage());
                LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1));
            }
        }
    }

    private List<Event> readOnce(String topic, String key, Predicate<Event> which) {
        Properties settings = new Properties();
        settings.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(settings, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(10)).stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, Duration.ofSeconds(10));
            List<Event> found = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (ends.entrySet().stream().anyMatch(end -> consumer.position(end.getKey()) < end.getValue())) {
                if (System.nanoTime() > deadline) {
                    throw new LogNotReadException("not read to its end in 30 s");
                }
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    if (key.equals(record.key())) {
                        Event event = new Event(header(record, "ce_type"), header(record, "ce_id"),
                                json.readTree(record.value()));
                        if (which.test(event)) {
                            found.add(event);
                        }
                    }
                }
            }
            return found;
        } catch (java.io.IOException e) {
            throw new IllegalStateException("an event of " + topic + " is not JSON", e);
        }
    }

    /** The last of the events {@code which} picks, or null. */
    Event last(String topic, String key, Predicate<Event> which) {
        List<Event> events = events(topic, key, which);
        return events.isEmpty() ? null : events.get(events.size() - 1);
    }

    /** A read of the log that did not reach the end it had found. */
    private static final class LogNotReadException extends RuntimeException {
        LogNotReadException(String message) {
            super(message);
        }
    }

    private static String header(ConsumerRecord<String, byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
