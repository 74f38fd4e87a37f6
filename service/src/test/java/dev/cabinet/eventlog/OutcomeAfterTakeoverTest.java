package dev.cabinet.eventlog;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;

import jakarta.inject.Inject;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

import com.github.f4b6a3.ulid.UlidCreator;

import dev.cabinet.support.PrivateTopics;
import io.quarkus.test.junit.QuarkusTest;

/**
 * GET /commands/{eventId} after a retry that took a command over from a killed instance: the retry makes the same
 * event id (from the Idempotency-Key's seed), and the killed instance may have written it to the log before the retry
 * sent anything. When the retry's own sends fail, the outcome must come from a search that begins at the first attempt
 * (the id's ULID time), not at the retry's first send: "never-appended" there would be false (the fault schedule's
 * full run of 5 December found it, a comment in the read model that its client had been told was never appended).
 */
@QuarkusTest
class OutcomeAfterTakeoverTest {

    @Inject
    EventSends sends;

    @Test
    void anEventAKilledInstanceWroteBeforeTheRetrysFailedSendsIsFoundNotNeverAppended() throws Exception {
        // a topic of its own, so that the projector never sees this record
        String topic = PrivateTopics.create("outcome-takeover-test", 3);
        // The first attempt, a minute ago, on the instance that was killed: the key's seed (kept by its reservation)
        // is a ULID of that time, and every attempt derives the same event id from it, as a retry does here.
        Instant firstAttempt = Instant.now().minus(Duration.ofMinutes(1));
        CommandIds ids = new CommandIds();
        ids.seed(UlidCreator.getUlid(firstAttempt.toEpochMilli()).toString());
        String eventId = ids.eventId();
        try (KafkaProducer<String, String> producer = PrivateTopics.producer()) {
            ProducerRecord<String, String> record = new ProducerRecord<>(topic, null, firstAttempt.toEpochMilli(),
                    "aggregate-1", "{}");
            record.headers().add(CloudEventHeaders.ID, eventId.getBytes(StandardCharsets.UTF_8));
            producer.send(record).get();
        }

        // The retry here, now: its send of the same id failed in the producer.
        sends.sending(eventId, "cabinet.test.v1", topic, "aggregate-1");
        sends.failed(eventId);

        String status = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                .until(() -> given().get("/commands/" + eventId).then().statusCode(200).extract().path("status"),
                        answer -> !"pending".equals(answer));
        assertEquals("appended", status, "the event the killed instance wrote, found from the first attempt's time");
    }
}
