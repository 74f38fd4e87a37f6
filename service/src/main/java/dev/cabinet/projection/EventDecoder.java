package dev.cabinet.projection;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cabinet.eventlog.CloudEventHeaders;
import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.eventlog.EventType;
import dev.cabinet.eventlog.LogPosition;

/**
 * Reads a Kafka record as a binary-mode CloudEvent of a known type. Unknown JSON fields are ignored so producers can add
 * fields without breaking older consumers; anything else that does not fit is an {@link UndecodableEventException}.
 */
final class EventDecoder {

    private final Map<String, EventType<?>> catalog;
    private final ObjectMapper json;

    EventDecoder(Map<String, EventType<?>> catalog, ObjectMapper json) {
        this.catalog = catalog;
        this.json = json.copy().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    }

    ReceivedEvent decode(ConsumerRecord<String, byte[]> record) {
        String type = header(record, CloudEventHeaders.TYPE);
        if (type == null || type.isBlank()) {
            throw new UndecodableEventException("missing header " + CloudEventHeaders.TYPE);
        }
        EventType<?> eventType = catalog.get(type);
        if (eventType == null) {
            throw new UnknownEventTypeException(type);
        }
        String id = required(record, CloudEventHeaders.ID);
        if (record.value() == null) {
            throw new UndecodableEventException("record has no data");
        }
        DomainEvent data;
        try {
            data = json.readValue(record.value(), eventType.dataClass());
        } catch (Exception e) {
            throw new UndecodableEventException("data is not a valid " + type + ": " + e.getMessage());
        }
        if (data == null) {
            throw new UndecodableEventException("data is null");
        }
        return new ReceivedEvent(id, type, header(record, CloudEventHeaders.SUBJECT), header(record, CloudEventHeaders.ACTOR),
                time(record), data, new LogPosition(record.topic(), record.partition(), record.offset()));
    }

    private static Instant time(ConsumerRecord<String, byte[]> record) {
        String time = header(record, CloudEventHeaders.TIME);
        if (time == null) {
            return Instant.ofEpochMilli(record.timestamp());
        }
        try {
            return Instant.parse(time);
        } catch (DateTimeParseException e) {
            throw new UndecodableEventException("ce_time is not an RFC 3339 time: " + time);
        }
    }

    private static String required(ConsumerRecord<String, byte[]> record, String name) {
        String value = header(record, name);
        if (value == null || value.isBlank()) {
            throw new UndecodableEventException("missing header " + name);
        }
        return value;
    }

    static String header(ConsumerRecord<String, byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
