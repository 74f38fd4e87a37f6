package dev.cabinet.eventlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import jakarta.inject.Inject;

import javax.management.ObjectName;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

import dev.cabinet.shared.Ids;
import dev.cabinet.support.PrivateTopics;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The log search finds an event by its id in its key's partition and says when the log does not hold it, search after
 * search on one kept consumer: no new connection per search (a consumer per search filled a frozen broker's accept
 * queue while clients asked after their commands, docs/faults.md); a search past its caller's deadline gives up.
 */
@QuarkusTest
class LogSearchTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Inject
    LogSearch search;

    @Test
    void searchAfterSearchFindsWhatTheLogHoldsOnOneConsumer() throws Exception {
        // a topic of its own, so that the projector never sees these records
        String topic = PrivateTopics.create("log-search-test", 3);
        Instant sentAt = Instant.now();
        String eventId = Ids.newId();
        RecordMetadata written;
        try (KafkaProducer<String, String> producer = PrivateTopics.producer()) {
            ProducerRecord<String, String> record = new ProducerRecord<>(topic, "key-a", "{}");
            record.headers().add(CloudEventHeaders.ID, eventId.getBytes(StandardCharsets.UTF_8));
            written = producer.send(record).get();
        }

        LogPosition expected = new LogPosition(topic, written.partition(), written.offset());
        assertEquals(Optional.of(expected), find(topic, "key-a", eventId, sentAt));
        double connections = connectionsOpened();
        for (int i = 0; i < 4; i++) {
            assertEquals(Optional.empty(), find(topic, "key-" + i, Ids.newId(), sentAt), "an id the log does not hold");
            assertEquals(Optional.of(expected), find(topic, "key-a", eventId, sentAt));
        }
        assertEquals(connections, connectionsOpened(), "searches after the first opened no connection");

        // a search whose caller's deadline has passed gives up at once, and the consumer stays for the next one
        assertThrows(TimeoutException.class, () -> search.find(topic, "key-a", eventId, sentAt, Duration.ZERO)
                .await().atMost(WAIT));
        assertEquals(Optional.of(expected), find(topic, "key-a", eventId, sentAt));
        assertEquals(connections, connectionsOpened(), "the consumer was kept");
    }

    private Optional<LogPosition> find(String topic, String key, String eventId, Instant sentAt) {
        return search.find(topic, key, eventId, sentAt, WAIT).await().atMost(WAIT);
    }

    /** Connections the search's consumer has opened so far (its metric, registered while the consumer lives). */
    private static double connectionsOpened() throws Exception {
        ObjectName metrics = new ObjectName("kafka.consumer:type=consumer-metrics,client-id=cabinet-log-search");
        assertTrue(ManagementFactory.getPlatformMBeanServer().isRegistered(metrics), "the search's consumer is kept");
        return (double) ManagementFactory.getPlatformMBeanServer().getAttribute(metrics, "connection-creation-total");
    }
}
