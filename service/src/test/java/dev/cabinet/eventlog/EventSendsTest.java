package dev.cabinet.eventlog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** What an instance remembers of the events it sent, for {@code GET /commands/{eventId}}. */
class EventSendsTest {

    private final EventSends sends = new EventSends();

    @Test
    void anEventWhoseSendFailedOutlivesAFlowOfAcknowledgedOnes() {
        sends.sending("unknown", "cabinet.post.created.v1", "cabinet.posts", "p0");
        sends.failed("unknown");
        for (int i = 0; i < 120_000; i++) {
            String id = "ok-" + i;
            sends.sending(id, "cabinet.post.created.v1", "cabinet.posts", "p" + i);
            sends.acknowledged(id, new LogPosition("cabinet.posts", 0, i));
        }
        sends.cleanUp();
        EventSends.Sent sent = sends.find("unknown").orElseThrow(
                () -> new AssertionError("the failed send was evicted by the acknowledged ones"));
        assertEquals(0, sent.inProducer());
        assertTrue(sent.lastFailedAt() != null && sent.position() == null, sent.toString());
    }

    @Test
    void anEventFoundInTheLogAfterItsSendFailedIsInTheLogAndSentAgainIsCountedOnce() {
        sends.sending("e1", "cabinet.post.created.v1", "cabinet.posts", "p1");
        sends.failed("e1");
        sends.found("e1", new LogPosition("cabinet.posts", 2, 40));
        sends.sending("e1", "cabinet.post.created.v1", "cabinet.posts", "p1");
        sends.acknowledged("e1", new LogPosition("cabinet.posts", 2, 41));
        EventSends.Sent sent = sends.find("e1").orElseThrow();
        assertEquals(new LogPosition("cabinet.posts", 2, 40), sent.position(), "the first position found stays");
        assertEquals(0, sent.inProducer());
    }
}
