package dev.cabinet.projection.contract;

import static dev.cabinet.support.Api.applied;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.awaitOk;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.waiting;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.inject.Inject;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import dev.cabinet.devservices.LoggedEventReader.Reading;
import dev.cabinet.devservices.LoggedEventReader;
import dev.cabinet.eventlog.Topics;
import dev.cabinet.support.EventLogReader;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The Dev UI's log view reads records as the projectors do ({@link LoggedEvents}): an older version upcast, a
 * person's sealed values opened while their key lives and the placeholder once they are erased, and a record that
 * cannot be read named as such instead of failing the page.
 */
@QuarkusTest
class LoggedEventsTest {

    @Inject
    LoggedEventReader reader;

    @Test
    void anOrderLoggedAsV1ReadsAsTheCurrentVersion() {
        Reading reading = reader.read(Topics.CUSTOMERS, 0, 7, "C01M8YOLD", Map.of(
                "ce_specversion", bytes("1.0"), "ce_id", bytes("01M8YV1B"), "ce_source", bytes("/older-writer"),
                "ce_type", bytes("cabinet.customer.order-placed.v1"), "ce_subject", bytes("C01M8YOLD"),
                "ce_time", bytes("2026-06-01T10:00:00.000Z"), "content-type", bytes("application/json")),
                bytes("{\"customerId\":\"C01M8YOLD\",\"orderId\":\"O01M8YV1\",\"orderDate\":\"2025-01-31\","
                        + "\"placedAt\":\"2025-01-31T09:00:00.000Z\",\"total\":129.9}"));
        assertNull(reading.problem());
        assertEquals("cabinet.customer.order-placed.v2", reading.type());
        assertTrue(reading.data().contains("\"total\":\"129.90\""), reading.data());
    }

    @Test
    void aPersonsNameReadsInClearUntilTheyAreErased() {
        String ada = newUserId();
        as(ada).body(Map.of("name", "Ada Logview", "email", "ada.logview@example.org")).put("/users/" + ada)
                .then().statusCode(202);
        awaitOk("/users/" + ada);
        ConsumerRecord<String, byte[]> registered = EventLogReader.recordsWithKey(Topics.USERS, ada).get(0);
        assertFalse(new String(registered.value(), StandardCharsets.UTF_8).contains("Ada Logview"), "sealed in the log");

        assertTrue(read(registered).data().contains("\"name\":\"Ada Logview\""), read(registered).data());

        applied(waiting(ada).delete("/users/" + ada));
        Reading erased = read(registered);
        assertTrue(erased.data().contains("\"name\":\"[erased]\""), erased.data());
        assertFalse(erased.data().contains("ada.logview@example.org"), erased.data());
    }

    @Test
    void aRecordThatIsNotJsonIsNamedUnreadable() {
        Reading reading = reader.read(Topics.CUSTOMERS, 0, 9, "C01", Map.of("ce_specversion", bytes("1.0"),
                "ce_id", bytes("x1"), "ce_source", bytes("/t"), "ce_type", bytes("cabinet.customer.registered.v1"),
                "content-type", bytes("application/json")), bytes("{not json"));
        assertNull(reading.type());
        assertTrue(reading.problem().contains("not JSON"), reading.problem());
    }

    private Reading read(ConsumerRecord<String, byte[]> record) {
        Map<String, byte[]> headers = new LinkedHashMap<>();
        record.headers().forEach(header -> headers.put(header.key(), header.value()));
        return reader.read(record.topic(), record.partition(), record.offset(), record.key(), headers, record.value());
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
