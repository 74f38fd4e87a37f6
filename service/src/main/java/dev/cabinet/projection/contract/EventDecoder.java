package dev.cabinet.projection.contract;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;

import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.eventlog.EventContract;
import dev.cabinet.eventlog.EventType;
import dev.cabinet.eventlog.LogPosition;
import dev.cabinet.eventlog.Topics;

/**
 * Reads a Kafka record as a CloudEvent (binary or structured mode) of a known type whose data conforms to the published
 * {@link EventContract}, then as the event's record (whose constructor checks the rules across fields). Unknown JSON
 * fields are ignored so producers can add fields without breaking older consumers; anything else that does not fit
 * is an {@link UndecodableEventException}.
 */
public final class EventDecoder {

    private final Map<String, EventType<?>> catalog;
    private final EventContract contract;
    private final ObjectMapper json;

    public EventDecoder(Map<String, EventType<?>> catalog, ObjectMapper json) {
        this.catalog = catalog;
        this.contract = new EventContract(catalog.keySet(), json);
        this.json = strict(json);
    }

    /**
     * Jackson as strict as the schemas: no coercion of a number into a string or back, no fraction into an integer, no
     * missing primitive read as 0, and exact decimals (an amount of 0.1 must not arrive as 0.1000000000000000055). An
     * integer written with a zero fraction or an exponent ({@code 1000.0}, {@code 1e3}) is the integer, as JSON
     * Schema's {@code integer} takes it ({@link IntegralNumbers}).
     */
    static ObjectMapper strict(ObjectMapper json) {
        ObjectMapper strict = json.copy()
                .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
                .configure(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS, true)
                .configure(DeserializationFeature.ACCEPT_FLOAT_AS_INT, false)
                .configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, true)
                .registerModule(IntegralNumbers.module());
        strict.coercionConfigFor(LogicalType.Textual)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        strict.coercionConfigFor(LogicalType.Integer)
                .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail);
        strict.coercionConfigFor(LogicalType.Float)
                .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail);
        return strict;
    }

    EventContract contract() {
        return contract;
    }

    /**
     * The record as an event: its envelope in either content mode ({@link CloudEvent}), its data checked against the
     * schema of the type it names, then read as that type's record and, for a superseded version, upcast to the current
     * one, so projectors only ever see current versions.
     */
    public ReceivedEvent decode(ConsumerRecord<String, byte[]> record) {
        CloudEvent event = envelope(record);
        return decode(record, event, event.data());
    }

    /** The record's CloudEvent, of a type this decoder knows; its data not checked yet. */
    public CloudEvent envelope(ConsumerRecord<String, byte[]> record) {
        CloudEvent event = CloudEvent.read(record, json);
        if (!catalog.containsKey(event.type())) {
            throw new UnknownEventTypeException(event.type(), catalog.keySet());
        }
        return event;
    }

    /** The record class of a known event type. */
    public Class<?> dataClass(CloudEvent event) {
        return catalog.get(event.type()).dataClass();
    }

    /** The event with {@code data} (its envelope's, or that with its sealed values opened) checked and read. */
    public ReceivedEvent decode(ConsumerRecord<String, byte[]> record, CloudEvent event, JsonNode data) {
        EventType<?> eventType = catalog.get(event.type());
        String number = NumberBounds.outOfBounds(data);
        if (number != null) {
            throw new UndecodableEventException("data holds a number no field takes, with more than "
                    + NumberBounds.DIGITS + " digits on a side of its point: " + abbreviated(number));
        }
        List<String> violations;
        DomainEvent read;
        try {
            violations = contract.violations(event.type(), data);
            read = violations.isEmpty() ? upcast(read(data, eventType), eventType) : null;
        } catch (UndecodableEventException e) {
            throw e;
        } catch (RuntimeException e) {
            // Whatever the checks cannot take is this record's, not the projection's: dead-lettered, not a halt.
            throw new UndecodableEventException("data of " + event.type() + " could not be checked: " + e);
        }
        if (!violations.isEmpty()) {
            throw new UndecodableEventException("data breaks the " + event.type() + " schema: "
                    + String.join("; ", violations));
        }
        // Among the event topics, which the projectors read (tests stage handovers on a partition of the dead letters,
        // which no consumer of the group reads).
        if (!eventType.topic().equals(record.topic()) && Topics.ALL.contains(record.topic())) {
            throw new UndecodableEventException(event.type() + " is published on " + eventType.topic() + ", not on "
                    + record.topic() + ": its aggregate's other events, and the offsets guarding its items, are there");
        }
        if (!read.aggregateId().equals(record.key())) {
            // Applied under another key, its stream's version would be compared with that key's partition's offsets:
            // an event below them silently skipped, one above them hiding the aggregate's own later events.
            String key = record.key() == null ? "missing" : "\"" + record.key() + "\"";
            throw new UndecodableEventException("the record's key is " + key + ", but the contract keys "
                    + event.type() + " by its aggregate's id, \"" + read.aggregateId() + "\" (bindings.kafka.key)");
        }
        return new ReceivedEvent(event.id(), eventType.currentName(), event.subject(), event.actor(), event.time(),
                read, new LogPosition(record.topic(), record.partition(), record.offset()));
    }

    private static String abbreviated(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "…";
    }

    /** The event's record from conforming JSON; its constructor checks what a schema cannot (rules across fields). */
    DomainEvent read(JsonNode tree, EventType<?> eventType) {
        try {
            DomainEvent data = json.treeToValue(tree, eventType.dataClass());
            if (data == null) {
                throw new UndecodableEventException("data is null");
            }
            return data;
        } catch (IOException | IllegalArgumentException e) {
            throw new UndecodableEventException("data is not a valid " + eventType.name() + ": " + e.getMessage());
        }
    }

    /** The data as the current version of its type; an old event the upcast cannot carry over is undecodable. */
    private static DomainEvent upcast(DomainEvent data, EventType<?> eventType) {
        try {
            return eventType.current(data);
        } catch (IllegalArgumentException e) {
            throw new UndecodableEventException("data of " + eventType.name() + " cannot be upcast to "
                    + eventType.currentName() + ": " + e.getMessage());
        }
    }
}
