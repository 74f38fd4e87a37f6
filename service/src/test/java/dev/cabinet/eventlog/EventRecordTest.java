package dev.cabinet.eventlog;

import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.newUserId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.cabinet.support.EventLogReader;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;

@QuarkusTest
class EventRecordTest {

    @Test
    void anAcceptedCommandIsOneBinaryCloudEventKeyedByTheAggregateAtThePositionTheApiReported() throws Exception {
        String id = newUserId();
        JsonPath accepted = as(id).body(Map.of("name", "Eve", "email", "eve@example.com")).put("/users/" + id)
                .then().statusCode(202).extract().jsonPath();

        List<ConsumerRecord<String, byte[]>> records = EventLogReader.recordsWithKey(Topics.USERS, id);
        assertEquals(1, records.size());
        ConsumerRecord<String, byte[]> record = records.get(0);
        assertEquals(Topics.USERS + ":" + record.partition() + ":" + record.offset(), accepted.getString("position"));
        assertEquals("1.0", EventLogReader.header(record, "ce_specversion"));
        assertEquals(accepted.getString("eventId"), EventLogReader.header(record, "ce_id"));
        assertEquals("cabinet.user.registered.v1", EventLogReader.header(record, "ce_type"));
        assertEquals(id, EventLogReader.header(record, "ce_subject"));
        assertEquals(id, EventLogReader.header(record, "ce_actor"));
        assertEquals("/cabinet", EventLogReader.header(record, "ce_source"));
        assertEquals("application/json", EventLogReader.header(record, "content-type"));
        assertTrue(Instant.parse(EventLogReader.header(record, "ce_time")).isBefore(Instant.now().plusSeconds(1)));

        JsonNode data = new ObjectMapper().readTree(record.value());
        assertEquals(id, data.get("userId").asText());
        // A person's data is sealed under their key: the record says whose it is, and nothing of the name or address.
        for (String field : List.of("name", "email")) {
            assertEquals("aes-gcm-v1", data.get(field).path("sealed").asText(), field);
            assertEquals(id, data.get(field).path("subject").asText(), field);
        }
        assertFalse(new String(record.value(), StandardCharsets.UTF_8).contains("Eve"));
        assertFalse(new String(record.value(), StandardCharsets.UTF_8).contains("eve@example.com"));
    }
}
