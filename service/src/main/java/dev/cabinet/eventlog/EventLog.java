package dev.cabinet.eventlog;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cabinet.table.Ids;
import dev.cabinet.table.Timestamps;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.OutgoingMessageMetadata;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;

/**
 * Appends events to Kafka as CloudEvents in binary mode, keyed by aggregate id, and completes only once the broker
 * acknowledged the record (acks=all, idempotent producer: see application.properties), with its position.
 */
@ApplicationScoped
public class EventLog {

    /** The outgoing channel; its producer settings live under {@code mp.messaging.outgoing.events-out}. */
    public static final String CHANNEL = "events-out";

    private final MutinyEmitter<byte[]> emitter;
    private final ObjectMapper json;
    private final EventLogConfig config;

    EventLog(@Channel(CHANNEL) MutinyEmitter<byte[]> emitter, ObjectMapper json, EventLogConfig config) {
        this.emitter = emitter;
        this.json = json;
        this.config = config;
    }

    public <E extends DomainEvent> Uni<Appended> append(EventType<E> type, E event, String actor) {
        if (type.isSuperseded()) {
            throw new IllegalArgumentException(type.name() + " is only read; append " + type.currentName());
        }
        String eventId = Ids.newId();
        List<RecordHeader> headers = List.of(
                header(CloudEventHeaders.SPEC_VERSION, CloudEventHeaders.SPEC_VERSION_1_0),
                header(CloudEventHeaders.ID, eventId),
                header(CloudEventHeaders.SOURCE, config.source()),
                header(CloudEventHeaders.TYPE, type.name()),
                header(CloudEventHeaders.TIME, Timestamps.format(Instant.now())),
                header(CloudEventHeaders.SUBJECT, event.aggregateId()),
                header(CloudEventHeaders.ACTOR, actor),
                header(CloudEventHeaders.CONTENT_TYPE, CloudEventHeaders.JSON));
        OutgoingMessageMetadata<RecordMetadata> result = new OutgoingMessageMetadata<>();
        Message<byte[]> message = Message.of(serialize(event))
                .addMetadata(OutgoingKafkaRecordMetadata.<String>builder()
                        .withTopic(type.topic())
                        .withKey(event.aggregateId())
                        .withHeaders(headers)
                        .build())
                .addMetadata(result);
        return Uni.createFrom().deferred(() -> emitter.sendMessage(message))
                .onFailure().transform(EventLogUnavailableException::new)
                .map(ignored -> new Appended(eventId, type.name(), position(result.getResult())));
    }

    private static LogPosition position(RecordMetadata metadata) {
        return new LogPosition(metadata.topic(), metadata.partition(), metadata.offset());
    }

    private byte[] serialize(DomainEvent event) {
        try {
            return json.writeValueAsBytes(event);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("event " + event.getClass().getSimpleName() + " cannot be written as JSON", e);
        }
    }

    private static RecordHeader header(String name, String value) {
        return new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
