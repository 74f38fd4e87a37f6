package dev.cabinet.eventlog;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import jakarta.enterprise.context.ApplicationScoped;

import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cabinet.erasure.DataKeys;
import dev.cabinet.erasure.ErasureConfig;
import dev.cabinet.erasure.PersonalFields;
import dev.cabinet.shared.Ids;
import io.quarkus.arc.Arc;
import dev.cabinet.shared.Timestamps;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.OutgoingMessageMetadata;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;

/**
 * Appends events to Kafka as CloudEvents in binary mode, keyed by aggregate id, and completes only once the broker
 * acknowledged the record (acks=all, idempotent producer: see application.properties), with its position; otherwise
 * the outcome is unknown, never "not written".
 */
@ApplicationScoped
public class EventLog {

    /** The outgoing channel; its producer settings live under {@code mp.messaging.outgoing.events-out}. */
    public static final String CHANNEL = "events-out";

    private final MutinyEmitter<byte[]> emitter;
    private final ObjectMapper json;
    private final EventLogConfig config;
    private final CommandIds ids;
    private final EventSends sends;
    private final LogEnds ends;
    private final DataKeys keys;
    private final ErasureConfig erasure;

    EventLog(@Channel(CHANNEL) MutinyEmitter<byte[]> emitter, ObjectMapper json, EventLogConfig config, CommandIds ids,
            EventSends sends, LogEnds ends, DataKeys keys, ErasureConfig erasure) {
        this.emitter = emitter;
        this.keys = keys;
        this.erasure = erasure;
        this.ends = ends;
        this.json = json;
        this.config = config;
        this.ids = ids;
        this.sends = sends;
    }

    /**
     * A new id for a resource a command creates: from the request's {@link CommandIds}, so that a retry with the same
     * Idempotency-Key creates the same resource; a random ULID outside a request.
     */
    public String newId() {
        return Arc.container().requestContext().isActive() ? ids.newId() : Ids.newId();
    }

    /** When the command happened: the request's {@link CommandIds#now}, the same on every retry with its key. */
    public Instant now() {
        return Arc.container().requestContext().isActive() ? ids.now() : Instant.now();
    }

    /**
     * Appends the event and emits where it was written. If the log does not acknowledge within
     * {@code cabinet.events.ack-timeout}, or the producer gives up on it, fails with {@link OutcomeUnknownException}:
     * the producer may still deliver it, or a frozen broker may write it when it wakes; {@link EventSends} follows it.
     * Within a request the event id comes from {@link CommandIds}, so a retry with the same Idempotency-Key appends the
     * same event id again, and the event is sent only while the request's {@link SendGate} is open (its deadline has
     * not passed), so that a deadline answer knows whether anything went to the log.
     */
    public <E extends DomainEvent> Uni<Appended> append(EventType<E> type, E event, String actor) {
        if (type.isSuperseded()) {
            throw new IllegalArgumentException(type.name() + " is only read; append " + type.currentName());
        }
        WrittenVersion writeAs = WrittenVersion.of(type, event, config.writeVersion());
        boolean inRequest = Arc.container().requestContext().isActive();
        String eventId = inRequest ? ids.eventId() : Ids.newId();
        List<RecordHeader> headers = List.of(
                header(CloudEventHeaders.SPEC_VERSION, CloudEventHeaders.SPEC_VERSION_1_0),
                header(CloudEventHeaders.ID, eventId),
                header(CloudEventHeaders.SOURCE, config.source()),
                header(CloudEventHeaders.TYPE, writeAs.type().name()),
                header(CloudEventHeaders.TIME, Timestamps.format(now())),
                header(CloudEventHeaders.SUBJECT, event.aggregateId()),
                header(CloudEventHeaders.ACTOR, actor),
                header(CloudEventHeaders.CONTENT_TYPE, CloudEventHeaders.JSON));
        return data(writeAs.type(), writeAs.data(), actor)
                .chain(bytes -> send(type, writeAs, event, eventId, inRequest, headers, bytes));
    }

    /**
     * The event's data as the log holds it: its {@link dev.cabinet.erasure.PersonalData personal data} sealed under its subject's key (the event's
     * {@link DomainEvent#dataSubject()}, else the actor), unless sealing is turned off.
     */
    private Uni<byte[]> data(EventType<?> type, DomainEvent data, String actor) {
        if (!erasure.seal() || !PersonalFields.carries(type.dataClass())) {
            return Uni.createFrom().item(() -> serialize(data));
        }
        String subject = data.dataSubject() != null ? data.dataSubject() : actor;
        return keys.forSealing(subject).map(key -> serialize(PersonalFields.seal(json.valueToTree(data),
                type.dataClass(), subject, key)));
    }

    private <E extends DomainEvent> Uni<Appended> send(EventType<E> type, WrittenVersion writeAs, E event,
            String eventId, boolean inRequest, List<RecordHeader> headers, byte[] bytes) {
        OutgoingMessageMetadata<RecordMetadata> result = new OutgoingMessageMetadata<>();
        Message<byte[]> message = Message.of(bytes)
                .addMetadata(OutgoingKafkaRecordMetadata.<String>builder()
                        .withTopic(type.topic())
                        .withKey(event.aggregateId())
                        .withHeaders(headers)
                        .build())
                .addMetadata(result);
        if (inRequest && !ids.gate().send(eventId)) {
            // The request already answered that nothing was sent; nobody waits for this failure.
            return Uni.createFrom().failure(new IllegalStateException("event " + eventId
                    + " was not sent: its request's deadline had passed"));
        }
        sends.sending(eventId, writeAs.type().name(), type.topic(), event.aggregateId());
        CompletableFuture<LogPosition> written = Uni.createFrom().deferred(() -> emitter.sendMessage(message))
                .map(ignored -> position(result.getResult()))
                .subscribeAsCompletionStage();
        // The answer waits for this bookkeeping (whenComplete's own future), not for the send alone.
        CompletableFuture<LogPosition> followed = written.whenComplete((position, error) -> {
            if (error == null) {
                // Before the command answers: a Consistency-Token with this position is then known to be in the log.
                ends.written(position);
                sends.acknowledged(eventId, position);
            } else {
                sends.failed(eventId);
            }
        });
        // A copy, so that giving up the wait (a timeout) does not cancel the send that EventSends follows.
        return Uni.createFrom().completionStage(followed::copy)
                .ifNoItem().after(config.ackTimeout()).failWith(() -> new OutcomeUnknownException(eventId, null))
                .onFailure(e -> !(e instanceof OutcomeUnknownException))
                .transform(e -> new OutcomeUnknownException(eventId, e))
                .map(position -> new Appended(eventId, writeAs.type().name(), position));
    }

    private static LogPosition position(RecordMetadata metadata) {
        return new LogPosition(metadata.topic(), metadata.partition(), metadata.offset());
    }

    private byte[] serialize(Object data) {
        try {
            return json.writeValueAsBytes(data);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("event data " + data.getClass().getSimpleName()
                    + " cannot be written as JSON", e);
        }
    }

    private static RecordHeader header(String name, String value) {
        return new RecordHeader(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
