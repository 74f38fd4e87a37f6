package dev.cabinet.eventlog;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.f4b6a3.ulid.Ulid;

/**
 * What this instance knows of the events it sent lately: still in the producer, acknowledged (with the position), or
 * failed in the producer (which, after a delivery timeout, does not mean the broker did not write it). A retry that sends
 * the same event id again adds to the same entry: one acknowledgement is enough for {@code appended}.
 */
@ApplicationScoped
public class EventSends {

    /** How long sends are remembered; a question about an older event is answered from the table or not at all. */
    static final Duration KEPT = Duration.ofHours(1);

    /** One event's sends: how many are still in the producer, the acknowledged position if any, the last failure. */
    public record Sent(String eventId, String type, String topic, String key, Instant firstSentAt, int inProducer,
            LogPosition position, Instant lastFailedAt) {

        Sent another() {
            return new Sent(eventId, type, topic, key, firstSentAt, inProducer + 1, position, lastFailedAt);
        }

        Sent acknowledged(LogPosition at) {
            return new Sent(eventId, type, topic, key, firstSentAt, inProducer - 1, position == null ? at : position,
                    lastFailedAt);
        }

        Sent failed(Instant at) {
            return new Sent(eventId, type, topic, key, firstSentAt, inProducer - 1, position, at);
        }

        /**
         * The earliest time any attempt of this event may have been sent, where a search of the log for it begins: its
         * first send here, or earlier when the command was first tried elsewhere. A retry with an Idempotency-Key makes
         * the event id again from the key's seed, a ULID whose time is the first attempt's, so an instance killed after
         * sending it may have written it to the log before this instance's first send.
         */
        public Instant searchFrom() {
            if (!Ulid.isValid(eventId)) {
                return firstSentAt;
            }
            Instant idMadeAt = Ulid.from(eventId).getInstant();
            return idMadeAt.isBefore(firstSentAt) ? idMadeAt : firstSentAt;
        }
    }

    private final Cache<String, Sent> sends = Caffeine.newBuilder().expireAfterWrite(KEPT).maximumSize(100_000).build();

    void sending(String eventId, String type, String topic, String key) {
        sends.asMap().compute(eventId, (id, known) -> known == null
                ? new Sent(eventId, type, topic, key, Instant.now(), 1, null, null)
                : known.another());
    }

    void acknowledged(String eventId, LogPosition position) {
        sends.asMap().computeIfPresent(eventId, (id, known) -> known.acknowledged(position));
    }

    void failed(String eventId) {
        sends.asMap().computeIfPresent(eventId, (id, known) -> known.failed(Instant.now()));
    }

    /** Records that a read of the log found the event (after its sends failed in the producer). */
    public void found(String eventId, LogPosition position) {
        sends.asMap().computeIfPresent(eventId, (id, known) -> new Sent(known.eventId(), known.type(), known.topic(),
                known.key(), known.firstSentAt(), known.inProducer(), position, known.lastFailedAt()));
    }

    public Optional<Sent> find(String eventId) {
        return Optional.ofNullable(sends.getIfPresent(eventId));
    }
}
