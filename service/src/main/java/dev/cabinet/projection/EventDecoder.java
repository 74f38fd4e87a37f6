package dev.cabinet.projection;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;

import dev.cabinet.eventlog.CloudEventHeaders;
import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.eventlog.EventContract;
import dev.cabinet.eventlog.EventType;
import dev.cabinet.eventlog.LogPosition;

/**
 * Reads a Kafka record as a binary-mode CloudEvent of a known type whose data conforms to the published
 * {@link EventContract}, then as the event's record (whose constructor checks the rules across fields). Unknown JSON
 * fields are ignored so producers can add fields without breaking older consumers; anything else that does not fit
 * is an {@link UndecodableEventException}.
 */
final class EventDecoder {

    private final Map<String, EventType<?>> catalog;
    private final EventContract contract;
    private final ObjectMapper json;

    EventDecoder(Map<String, EventType<?>> catalog, ObjectMapper json) {
        this.catalog = catalog;
        this.contract = new EventContract(catalog.keySet(), json);
        this.json = strict(json);
    }

    /**
     * Jackson as strict as the schemas: no coercion of a number into a string or back, no fraction into an integer, no
     * missing primitive read as 0, and exact decimals (an amount of 0.1 must not arrive as 0.1000000000000000055). An
     * integer must be written without a fraction or exponent ({@code 1000}, not {@code 1e3}); the schemas say so.
     */
    static ObjectMapper strict(ObjectMapper json) {
        ObjectMapper strict = json.copy()
                .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
                .configure(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS, true)
                .configure(DeserializationFeature.ACCEPT_FLOAT_AS_INT, false)
                .configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, true);
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
        required(record, CloudEventHeaders.SOURCE);
        String specVersion = required(record, CloudEventHeaders.SPEC_VERSION);
        if (!CloudEventHeaders.SPEC_VERSION_1_0.equals(specVersion)) {
            throw new UndecodableEventException(CloudEventHeaders.SPEC_VERSION + " must be 1.0, not " + specVersion);
        }
        if (record.value() == null) {
            throw new UndecodableEventException("record has no data");
        }
        JsonNode tree;
        try {
            tree = json.readTree(record.value());
        } catch (IOException e) {
            throw new UndecodableEventException("data is not JSON: " + e.getMessage());
        }
        List<String> violations = contract.violations(type, tree);
        if (!violations.isEmpty()) {
            throw new UndecodableEventException("data breaks the " + type + " schema: " + String.join("; ", violations));
        }
        DomainEvent data = read(tree, eventType);
        return new ReceivedEvent(id, type, header(record, CloudEventHeaders.SUBJECT), header(record, CloudEventHeaders.ACTOR),
                time(record), data, new LogPosition(record.topic(), record.partition(), record.offset()));
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
