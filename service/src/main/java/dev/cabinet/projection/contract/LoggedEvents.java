package dev.cabinet.projection.contract;

import java.time.Duration;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cabinet.devservices.LoggedEventReader;
import dev.cabinet.projection.execution.EventApplier;
import dev.cabinet.projection.failure.UnappliableEventException;

/**
 * The Dev UI's log view reads each record through the projectors' own path ({@link EventApplier#read}): an old
 * version upcast, sealed personal data opened (an erased person's as the placeholder), so what it shows is what
 * projection sees, beside the record as logged.
 */
@ApplicationScoped
public class LoggedEvents implements LoggedEventReader {

    /** One page of the view reads a few dozen records; a store that does not answer must not hold it longer. */
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(5);
    private static final long KEY_READ_ATTEMPTS = 2;

    private final EventApplier applier;
    private final ObjectMapper json;

    LoggedEvents(EventApplier applier, ObjectMapper json) {
        this.applier = applier;
        this.json = json;
    }

    @Override
    public Reading read(String topic, int partition, long offset, String key, Map<String, byte[]> headers,
            byte[] value) {
        ConsumerRecord<String, byte[]> record = new ConsumerRecord<>(topic, partition, offset, key, value);
        headers.forEach((name, header) -> record.headers().add(name, header));
        try {
            ReceivedEvent event = applier.read(record, KEY_READ_ATTEMPTS).await().atMost(READ_TIMEOUT);
            return Reading.of(event.type(), json.writeValueAsString(event.data()));
        } catch (UnappliableEventException e) {
            return Reading.unreadable(e.getMessage());
        } catch (JsonProcessingException | RuntimeException e) {
            return Reading.unreadable("not readable now: " + e);
        }
    }
}
