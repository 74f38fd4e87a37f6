package dev.cabinet.rebuild;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * What a stream rebuild reads of a record before it hands the record to the projector: its event id and its data, in
 * either CloudEvents content mode. Lenient on purpose: the projector validates the record when it applies it.
 */
record RecordedEvent(ConsumerRecord<String, byte[]> record, String id, JsonNode data) {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String STRUCTURED = "application/cloudevents+json";

    static RecordedEvent of(ConsumerRecord<String, byte[]> record) {
        JsonNode value = parse(record.value());
        boolean structured = header(record, "content-type").filter(type -> type.startsWith(STRUCTURED)).isPresent();
        if (structured) {
            return new RecordedEvent(record, text(value.path("id")), value.path("data"));
        }
        return new RecordedEvent(record, header(record, "ce_id").orElse(null), value);
    }

    /** The data's string field, or null. */
    String field(String name) {
        return text(data.path(name));
    }

    /** Whether the data has the field with a value, clear or sealed (a person's data is an object in the log). */
    boolean has(String name) {
        return data.hasNonNull(name);
    }

    long offset() {
        return record.offset();
    }

    private static JsonNode parse(byte[] value) {
        if (value == null) {
            return JSON.missingNode();
        }
        try {
            return JSON.readTree(value);
        } catch (IOException e) {
            return JSON.missingNode();   // the projector will say why when it applies the record
        }
    }

    private static String text(JsonNode node) {
        return node.isTextual() ? node.asText() : null;
    }

    private static Optional<String> header(ConsumerRecord<String, byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null || header.value() == null ? Optional.empty()
                : Optional.of(new String(header.value(), StandardCharsets.UTF_8));
    }
}
