package dev.cabinet.projection;

import static dev.cabinet.support.Api.awaitOk;
import static dev.cabinet.support.Api.newUserId;
import static org.hamcrest.Matchers.equalTo;

import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.Topics;
import dev.cabinet.support.ForeignProducer;
import io.quarkus.test.junit.QuarkusTest;

/** Records written by another producer than Cabinet's API, with a plain Kafka producer (bad ones: DeadLetterTest). */
@QuarkusTest
class ForeignRecordsTest {

    @Test
    void aWellFormedEventFromAnotherProducerIsProjected() throws Exception {
        String id = newUserId();
        ForeignProducer.produce(Topics.USERS, id, "ext-" + System.nanoTime(), "cabinet.user.registered.v1",
                "{\"userId\":\"" + id + "\",\"name\":\"Ext\",\"email\":\"ext@example.com\","
                        + "\"registeredAt\":\"2026-01-01T00:00:00.000Z\"}");
        awaitOk("/users/" + id).body("name", equalTo("Ext")).body("registeredAt", equalTo("2026-01-01T00:00:00.000Z"));
    }
}
