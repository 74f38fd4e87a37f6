package dev.cabinet.projection.contract;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.eventlog.EventType;
import dev.cabinet.projection.failure.UnappliableEventException;

/**
 * Reads records as events of a few types, exactly as the projection engine does (envelope in either content mode,
 * schema, upcast), for a consumer of side effects that has its own consumer group. A record of another type, or one
 * that cannot be read, is none of its business: the projection engine dead-letters those.
 */
public final class EventReader {

    private final EventDecoder decoder;

    public EventReader(List<EventType<?>> types, ObjectMapper json) {
        Map<String, EventType<?>> catalog = new HashMap<>();
        types.forEach(type -> catalog.put(type.name(), type));
        this.decoder = new EventDecoder(catalog, json);
    }

    /** The record's event; empty when it is not one of these types, or not readable as one. */
    public Optional<DomainEvent> read(ConsumerRecord<String, byte[]> record) {
        try {
            return Optional.of(decoder.decode(record).data());
        } catch (UnappliableEventException e) {
            return Optional.empty();
        }
    }
}
