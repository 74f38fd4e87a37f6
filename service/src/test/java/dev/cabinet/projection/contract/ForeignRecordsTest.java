package dev.cabinet.projection.contract;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.asOperator;
import static dev.cabinet.support.Api.awaitOk;
import static dev.cabinet.support.Api.newUserId;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.KeyPartitions;
import dev.cabinet.eventlog.Topics;
import dev.cabinet.projection.failure.DeadLetterTopic;
import dev.cabinet.projection.ordering.LogKey;
import dev.cabinet.shared.Ids;
import dev.cabinet.support.EventLogReader;
import dev.cabinet.support.ForeignProducer;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Records written by another producer than Cabinet's API, with a plain Kafka producer, in either content mode of the
 * CloudEvents Kafka binding (more bad ones: DeadLetterTest), and events of a superseded version still in the log.
 */
@QuarkusTest
class ForeignRecordsTest {

    private static final String REGISTERED = "cabinet.user.registered.v1";
    private static final String UPDATED = "cabinet.user.profile-updated.v1";

    @ConfigProperty(name = "cabinet.events.partitions")
    int partitions;

    @Test
    void aWellFormedEventFromAnotherProducerIsProjected() throws Exception {
        String id = newUserId();
        ForeignProducer.produce(Topics.USERS, id, "ext-" + System.nanoTime(), REGISTERED, registered(id));
        awaitOk("/users/" + id).body("name", equalTo("Ext")).body("registeredAt", equalTo("2026-01-01T00:00:00.000Z"));
    }

    @Test
    void theSameEventInStructuredModeIsProjectedLikeInBinaryMode() throws Exception {
        String binary = newUserId();
        String structured = newUserId();
        ForeignProducer.produce(Topics.USERS, binary, Ids.newId(), REGISTERED, registered(binary));
        ForeignProducer.produceStructured(Topics.USERS, structured, """
                {"specversion":"1.0","id":"%s","source":"/another-service","type":"%s","subject":"%s",
                 "time":"2026-01-01T00:00:00.000Z","datacontenttype":"application/json","data":%s}"""
                .formatted(Ids.newId(), REGISTERED, structured, registered(structured)));
        Map<String, Object> fromBinary = withoutId(awaitOk("/users/" + binary).extract().jsonPath().getMap(""));
        Map<String, Object> fromStructured = withoutId(awaitOk("/users/" + structured).extract().jsonPath().getMap(""));
        assertEquals(fromBinary, fromStructured);
        assertEquals("Ext", fromStructured.get("name"));
    }

    @Test
    void aStructuredEventWithABrokenEnvelopeIsDeadLetteredWithItsReason() throws Exception {
        Map<String, String> reasonByEnvelope = new LinkedHashMap<>();
        reasonByEnvelope.put("{\"specversion\":\"0.3\",\"id\":\"%2$s\",\"source\":\"/x\",\"type\":\"" + REGISTERED
                + "\",\"data\":%1$s}", "specversion must be 1.0, not 0.3");
        reasonByEnvelope.put("{\"specversion\":\"1.0\",\"id\":\"%2$s\",\"source\":\"/x\",\"type\":\"" + REGISTERED
                + "\"}", "structured CloudEvent has no data");
        reasonByEnvelope.put("{\"specversion\":\"1.0\",\"id\":\"%2$s\",\"type\":\"" + REGISTERED + "\",\"data\":%1$s}",
                "structured CloudEvent has no source");
        reasonByEnvelope.put("{\"specversion\":\"1.0\",\"id\":\"%2$s\",\"source\":\"/x\",\"type\":\"" + REGISTERED
                + "\",\"datacontenttype\":\"text/plain\",\"data\":%1$s}", "datacontenttype must be application/json");
        reasonByEnvelope.put("{\"specversion\":\"1.0\",\"id\":\"%2$s\",\"source\":\"/x\",\"type\":\"" + REGISTERED
                + "\",\"data_base64\":\"e30=\"}", "data_base64 is not accepted");
        reasonByEnvelope.put("{\"specversion\":\"1.0\",\"id\":\"%2$s\",\"source\":\"/x\",\"type\":\"" + REGISTERED
                + "\",\"data\":{\"userId\":\"%3$s\",\"name\":7}}", "breaks the " + REGISTERED + " schema: /name");
        reasonByEnvelope.put("[\"%2$s\"]", "structured CloudEvent must be a JSON object");
        for (Map.Entry<String, String> broken : reasonByEnvelope.entrySet()) {
            String user = newUserId();
            String eventId = Ids.newId();
            String envelope = broken.getKey().formatted(registered(user), eventId, user);
            ForeignProducer.produceStructured(Topics.USERS, user, envelope);

            ConsumerRecord<String, byte[]> deadLetter = awaitDeadLetter(user);
            assertEquals(envelope, new String(deadLetter.value(), StandardCharsets.UTF_8));
            assertThat(EventLogReader.header(deadLetter, DeadLetterTopic.REASON), containsString(broken.getValue()));
            String parkedKey = EventLogReader.header(deadLetter, DeadLetterTopic.PARKED_KEY);
            var parked = asOperator().get("/admin/parked-keys/" + parkedKey).then().statusCode(200)
                    .body("reason", containsString(broken.getValue()));
            if (envelope.startsWith("{")) {
                parked.body("eventId", equalTo(eventId)).body("eventType", equalTo(REGISTERED));
            }
            asOperator().post("/admin/parked-keys/" + parkedKey + "/discard").then().statusCode(200);
        }
    }

    /**
     * A producer with librdkafka's default partitioner puts a key on another partition than Cabinet's producer: the
     * record is dead-lettered with that reason and parks its key; an operator's retry applies it. A key both
     * partitioners happen to put on the same partition is applied as usual.
     */
    @Test
    void anEventOnAnotherPartitionThanItsKeysIsDeadLetteredAndRetriedByTheOperator() throws Exception {
        String user = keyWherePartitionersDiffer(true);
        ForeignProducer.produceAsLibrdkafka(Topics.USERS, partitions, user, Ids.newId(), REGISTERED, registered(user));

        ConsumerRecord<String, byte[]> deadLetter = awaitDeadLetter(user);
        int expected = KeyPartitions.of(user, partitions);
        assertThat(EventLogReader.header(deadLetter, DeadLetterTopic.REASON), containsString("belongs on partition "
                + expected));
        String parkedKey = EventLogReader.header(deadLetter, DeadLetterTopic.PARKED_KEY);
        asOperator().get("/admin/parked-keys/" + parkedKey).then().statusCode(200)
                .body("reason", containsString("librdkafka"));
        asOperator().post("/admin/parked-keys/" + parkedKey + "/retry").then().statusCode(200);
        awaitOk("/users/" + user).body("name", equalTo("Ext"));

        String same = keyWherePartitionersDiffer(false);
        ForeignProducer.produceAsLibrdkafka(Topics.USERS, partitions, same, Ids.newId(), REGISTERED, registered(same));
        awaitOk("/users/" + same).body("name", equalTo("Ext"));
    }

    /**
     * A misplaced record parks a key of its own (its partition in the id): the key's own events, on the partition the
     * key belongs on, have no order with it and do not wait behind it; the operator's retry applies it alone. (Its
     * offset is not of the key's partition, so the stream's version guard may take it for an event applied before:
     * what it changes is not asserted.)
     */
    @Test
    void aMisplacedRecordParksAKeyOfItsOwnAndItsKeysEventsGoOn() throws Exception {
        String user = keyWherePartitionersDiffer(true);
        ForeignProducer.produce(Topics.USERS, user, Ids.newId(), REGISTERED, registered(user));
        awaitOk("/users/" + user).body("name", equalTo("Ext"));
        ForeignProducer.produceAsLibrdkafka(Topics.USERS, partitions, user, Ids.newId(), UPDATED,
                "{\"userId\":\"" + user + "\",\"avatarUrl\":\"https://example.com/ext.png\"}");
        String parkedKey = EventLogReader.header(awaitDeadLetter(user), DeadLetterTopic.PARKED_KEY);
        int misplacedOn = ForeignProducer.crc32Partition(user, partitions);
        assertEquals(new LogKey(Topics.USERS, misplacedOn, user, true).id(), parkedKey);
        ForeignProducer.produce(Topics.USERS, user, Ids.newId(), UPDATED,
                "{\"userId\":\"" + user + "\",\"name\":\"Renamed\"}");
        // The profile answers 200 already: wait for the rename itself.
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/users/" + user).then()
                .body("name", equalTo("Renamed")));
        asOperator().get("/admin/parked-keys/" + parkedKey).then().statusCode(200).body("events", hasSize(1))
                .body("partition", equalTo(misplacedOn));
        asOperator().get("/admin/parked-keys/" + new LogKey(Topics.USERS, 0, user).id()).then().statusCode(404);
        asOperator().post("/admin/parked-keys/" + parkedKey + "/retry").then().statusCode(200)
                .body("state", equalTo("released")).body("applied", equalTo(1));
    }

    private String keyWherePartitionersDiffer(boolean differ) {
        while (true) {
            String key = newUserId();
            boolean differs = ForeignProducer.crc32Partition(key, partitions) != KeyPartitions.of(key, partitions);
            if (differs == differ) {
                return key;
            }
        }
    }

    @Test
    void anOrderPlacedV1InTheLogIsUpcastAndProjectedBesideV2InEitherMode() throws Exception {
        String customer = newUserId();
        String v1 = Ids.newId();
        String v2 = Ids.newId();
        ForeignProducer.produce(Topics.CUSTOMERS, customer, Ids.newId(), "cabinet.customer.registered.v1",
                "{\"customerId\":\"" + customer + "\",\"name\":\"Ext\",\"email\":\"ext@example.com\"}");
        ForeignProducer.produce(Topics.CUSTOMERS, customer, Ids.newId(), "cabinet.customer.order-placed.v1",
                """
                {"customerId":"%s","orderId":"%s","orderDate":"2026-06-01",
                 "placedAt":"2026-06-01T09:30:00.000Z","total":129.9}""".formatted(customer, v1));
        ForeignProducer.produceStructured(Topics.CUSTOMERS, customer, """
                {"specversion":"1.0","id":"%s","source":"/shop","type":"cabinet.customer.order-placed.v2","data":
                 {"customerId":"%s","orderId":"%s","orderDate":"2026-06-02",
                  "placedAt":"2026-06-02T10:00:00.000Z","total":"19.99"}}"""
                .formatted(Ids.newId(), customer, v2));
        awaitOk("/orders/" + v1).body("total", equalTo("129.90")).body("status", equalTo("placed"));
        awaitOk("/orders/" + v2).body("total", equalTo("19.99"));
    }

    /**
     * A v1 total of 1e1000000000 (schema-valid as written: a number, a multiple of 0.01): checking it, the schema
     * validator's exact arithmetic threw, which failed the batch and stopped the projection until a restart that met
     * it again. It is dead-lettered with the reason, and the projection goes on.
     */
    @Test
    void aNumberNoFieldTakesIsDeadLetteredAndTheProjectionGoesOn() throws Exception {
        String customer = newUserId();
        ForeignProducer.produce(Topics.CUSTOMERS, customer, Ids.newId(), "cabinet.customer.registered.v1",
                "{\"customerId\":\"" + customer + "\",\"name\":\"Ext\",\"email\":\"ext@example.com\"}");
        ForeignProducer.produce(Topics.CUSTOMERS, customer, Ids.newId(), "cabinet.customer.order-placed.v1",
                """
                {"customerId":"%s","orderId":"%s","orderDate":"2026-06-01",
                 "placedAt":"2026-06-01T09:30:00.000Z","total":1e1000000000}""".formatted(customer, Ids.newId()));
        ConsumerRecord<String, byte[]> deadLetter = awaitDeadLetter(customer);
        assertThat(EventLogReader.header(deadLetter, DeadLetterTopic.REASON), containsString("digits"));

        String other = newUserId();
        ForeignProducer.produce(Topics.CUSTOMERS, other, Ids.newId(), "cabinet.customer.registered.v1",
                "{\"customerId\":\"" + other + "\",\"name\":\"After\",\"email\":\"after@example.com\"}");
        awaitOk("/customers/" + other).body("name", equalTo("After"));
        asOperator().post("/admin/parked-keys/" + EventLogReader.header(deadLetter, DeadLetterTopic.PARKED_KEY)
                + "/discard").then().statusCode(200);
    }

    /**
     * A status change keyed by the order's id, not its customer's (the contract's key): applied, it was guarded by
     * the offsets of another key's partition, and silently skipped or taken for the customer's newest event. It is
     * dead-lettered with the reason; so is an event on another type's topic.
     */
    @Test
    void anEventUnderAnotherKeyOrTopicThanItsContractsIsDeadLettered() throws Exception {
        String customer = newUserId();
        String order = "O" + Ids.newId();
        ForeignProducer.produce(Topics.CUSTOMERS, order, Ids.newId(), "cabinet.customer.order-status-changed.v1",
                """
                {"customerId":"%s","orderId":"%s","orderDate":"2026-06-01","status":"shipped"}"""
                        .formatted(customer, order));
        ConsumerRecord<String, byte[]> wrongKey = awaitDeadLetter(order);
        assertThat(EventLogReader.header(wrongKey, DeadLetterTopic.REASON), containsString("by its aggregate's id, \""
                + customer + "\""));

        String user = newUserId();
        ForeignProducer.produce(Topics.POSTS, user, Ids.newId(), REGISTERED, registered(user));
        ConsumerRecord<String, byte[]> wrongTopic = awaitDeadLetter(user);
        assertThat(EventLogReader.header(wrongTopic, DeadLetterTopic.REASON), containsString("is published on "
                + Topics.USERS));
        given().get("/users/" + user).then().statusCode(404);
        for (ConsumerRecord<String, byte[]> deadLetter : List.of(wrongKey, wrongTopic)) {
            asOperator().post("/admin/parked-keys/" + EventLogReader.header(deadLetter, DeadLetterTopic.PARKED_KEY)
                    + "/discard").then().statusCode(200);
        }
    }

    private static ConsumerRecord<String, byte[]> awaitDeadLetter(String key) {
        return await().atMost(PROJECTION_WAIT).until(() -> EventLogReader.recordsWithKey(Topics.DEAD_LETTERS, key),
                records -> records.size() == 1).get(0);
    }

    private static Map<String, Object> withoutId(Map<String, Object> view) {
        Map<String, Object> rest = new LinkedHashMap<>(view);
        rest.remove("id");
        return rest;
    }

    private static String registered(String id) {
        return "{\"userId\":\"" + id + "\",\"name\":\"Ext\",\"email\":\"ext@example.com\","
                + "\"registeredAt\":\"2026-01-01T00:00:00.000Z\"}";
    }
}
