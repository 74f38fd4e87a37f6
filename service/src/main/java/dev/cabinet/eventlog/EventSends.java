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

    /**
     * Events in the producer or failed in it: the ones a client asks about after an {@code outcome-unknown}, kept apart
     * from the acknowledged ones so that a busy instance's flow of successful commands never evicts them.
     */
    private final Cache<String, Sent> unsettled = Caffeine.newBuilder().expireAfterWrite(KEPT).maximumSize(100_000)
            .build();
    /** Events the log acknowledged, or a read of the log found. */
    private final Cache<String, Sent> inLog = Caffeine.newBuilder().expireAfterWrite(KEPT).maximumSize(100_000)
            .build();

    // Synchronized: an entry moves from one cache to the other (a few hundred nanoseconds a send, never held long).
    synchronized void sending(String eventId, String type, String topic, String key) {
        Sent known = find(eventId).orElse(null);
        keep(known == null ? new Sent(eventId, type, topic, key, Instant.now(), 1, null, null) : known.another());
    }

    synchronized void acknowledged(String eventId, LogPosition position) {
        find(eventId).ifPresent(known -> keep(known.acknowledged(position)));
    }

    synchronized void failed(String eventId) {
        find(eventId).ifPresent(known -> keep(known.failed(Instant.now())));
    }

    /** Records that a read of the log found the event (after its sends failed in the producer). */
    public synchronized void found(String eventId, LogPosition position) {
        find(eventId).ifPresent(known -> keep(new Sent(known.eventId(), known.type(), known.topic(), known.key(),
                known.firstSentAt(), known.inProducer(), position, known.lastFailedAt())));
    }

    private void keep(Sent sent) {
        if (sent.position() == null) {
            unsettled.put(sent.eventId(), sent);
        } else {
            inLog.put(sent.eventId(), sent);   // first, so that find never misses the entry as it moves
            unsettled.invalidate(sent.eventId());
        }
    }

    /** Runs the caches' pending evictions now (tests). */
    void cleanUp() {
        unsettled.cleanUp();
        inLog.cleanUp();
    }

    public Optional<Sent> find(String eventId) {
        Sent acknowledged = inLog.getIfPresent(eventId);
        return Optional.ofNullable(acknowledged != null ? acknowledged : unsettled.getIfPresent(eventId));
    }
}
