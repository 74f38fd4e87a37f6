package dev.cabinet.projection.contract;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cabinet.eventlog.CloudEventHeaders;

/**
 * A record read as a CloudEvent 1.0, whichever content mode of the Kafka binding its producer chose: binary (attributes
 * in {@code ce_} headers, the data as the record value; what Cabinet writes) or structured ({@code content-type:
 * application/cloudevents+json}, the whole event as one JSON object with the data as JSON in {@code data}). The one
 * place that knows both, so everything after it (schema, types, projectors, dead letters) treats them alike.
 */
public record CloudEvent(String specVersion, String id, String source, String type, Instant time, String subject,
        String actor, JsonNode data) {

    private static final String EXTENSION_ACTOR = "actor";
    private static final ObjectMapper LENIENT = new ObjectMapper();

    /** Reads the record's envelope and data; an envelope that breaks the binding is undecodable, with the reason. */
    static CloudEvent read(ConsumerRecord<String, byte[]> record, ObjectMapper json) {
        return isStructured(record) ? structured(record, json) : binary(record, json);
    }

    /**
     * One attribute (e.g. {@code id}, {@code type}) for the dead-letter path's bookkeeping, read leniently in either
     * mode: empty when absent or unreadable, since that path must also handle records whose envelope is broken.
     */
    public static Optional<String> attribute(ConsumerRecord<String, byte[]> record, String name) {
        if (!isStructured(record)) {
            return Optional.ofNullable(header(record, "ce_" + name));
        }
        try {
            JsonNode value = record.value() == null ? null : LENIENT.readTree(record.value()).get(name);
            return value != null && value.isTextual() ? Optional.of(value.asText()) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    static boolean isStructured(ConsumerRecord<String, byte[]> record) {
        String contentType = header(record, CloudEventHeaders.CONTENT_TYPE);
        return contentType != null
                && contentType.toLowerCase(Locale.ROOT).startsWith(CloudEventHeaders.STRUCTURED);
    }

    public static String header(ConsumerRecord<String, byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null || header.value() == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    private static CloudEvent binary(ConsumerRecord<String, byte[]> record, ObjectMapper json) {
        String type = requiredHeader(record, CloudEventHeaders.TYPE);
        String id = requiredHeader(record, CloudEventHeaders.ID);
        String source = requiredHeader(record, CloudEventHeaders.SOURCE);
        String specVersion = specVersion(requiredHeader(record, CloudEventHeaders.SPEC_VERSION),
                CloudEventHeaders.SPEC_VERSION);
        String time = header(record, CloudEventHeaders.TIME);
        if (record.value() == null) {
            throw new UndecodableEventException("record has no data");
        }
        JsonNode data;
        try {
            data = json.readTree(record.value());
        } catch (IOException e) {
            throw new UndecodableEventException("data is not JSON: " + e.getMessage());
        }
        return new CloudEvent(specVersion, id, source, type, time(record, time, CloudEventHeaders.TIME),
                header(record, CloudEventHeaders.SUBJECT), header(record, CloudEventHeaders.ACTOR), data);
    }

    private static CloudEvent structured(ConsumerRecord<String, byte[]> record, ObjectMapper json) {
        if (record.value() == null) {
            throw new UndecodableEventException("structured CloudEvent: record has no value");
        }
        JsonNode event;
        try {
            event = json.readTree(record.value());
        } catch (IOException e) {
            throw new UndecodableEventException("structured CloudEvent is not JSON: " + e.getMessage());
        }
        if (event == null || !event.isObject()) {
            throw new UndecodableEventException("structured CloudEvent must be a JSON object");
        }
        String type = requiredAttribute(event, "type");
        String id = requiredAttribute(event, "id");
        String source = requiredAttribute(event, "source");
        String specVersion = specVersion(requiredAttribute(event, "specversion"), "specversion");
        String contentType = optionalAttribute(event, "datacontenttype");
        if (contentType != null && !isJson(contentType)) {
            throw new UndecodableEventException("structured CloudEvent: datacontenttype must be "
                    + CloudEventHeaders.JSON + ", not " + contentType);
        }
        if (event.has("data_base64")) {
            throw new UndecodableEventException("structured CloudEvent: data_base64 is not accepted; put the JSON "
                    + "data in data");
        }
        JsonNode data = event.get("data");
        if (data == null) {
            throw new UndecodableEventException("structured CloudEvent has no data");
        }
        return new CloudEvent(specVersion, id, source, type, time(record, optionalAttribute(event, "time"), "time"),
                optionalAttribute(event, "subject"), optionalAttribute(event, EXTENSION_ACTOR), data);
    }

    private static boolean isJson(String contentType) {
        String mediaType = contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
        return mediaType.equals(CloudEventHeaders.JSON);
    }

    private static String specVersion(String value, String name) {
        if (!CloudEventHeaders.SPEC_VERSION_1_0.equals(value)) {
            throw new UndecodableEventException(name + " must be 1.0, not " + value);
        }
        return value;
    }

    private static Instant time(ConsumerRecord<String, byte[]> record, String time, String name) {
        if (time == null) {
            return Instant.ofEpochMilli(record.timestamp());
        }
        try {
            return Instant.parse(time);
        } catch (DateTimeParseException e) {
            throw new UndecodableEventException(name + " is not an RFC 3339 time: " + time);
        }
    }

    private static String requiredHeader(ConsumerRecord<String, byte[]> record, String name) {
        String value = header(record, name);
        if (value == null || value.isBlank()) {
            throw new UndecodableEventException("missing header " + name);
        }
        return value;
    }

    private static String requiredAttribute(JsonNode event, String name) {
        String value = optionalAttribute(event, name);
        if (value == null || value.isBlank()) {
            throw new UndecodableEventException("structured CloudEvent has no " + name);
        }
        return value;
    }

    /** A string attribute; JSON format writes every context attribute as a JSON string. */
    private static String optionalAttribute(JsonNode event, String name) {
        JsonNode value = event.get(name);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw new UndecodableEventException("structured CloudEvent: " + name + " must be a string");
        }
        return value.asText();
    }
}
