package dev.cabinet.deadletter;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.asOperator;
import static dev.cabinet.support.Api.awaitOk;
import static dev.cabinet.support.Api.newUserId;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.CloudEventHeaders;
import dev.cabinet.eventlog.LogPosition;
import dev.cabinet.eventlog.Topics;
import dev.cabinet.projection.contract.ReceivedEvent;
import dev.cabinet.projection.failure.DeadLetterTopic;
import dev.cabinet.projection.failure.ParkedKeys;
import dev.cabinet.projection.failure.Rejections;
import dev.cabinet.projection.failure.UnappliableEventException;
import dev.cabinet.projection.ordering.LogKey;
import dev.cabinet.shared.Ids;
import dev.cabinet.support.BeforeCall;
import dev.cabinet.support.EventLogReader;
import dev.cabinet.support.ForeignProducer;
import dev.cabinet.table.KeyPlan;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * Poison events, written with a plain Kafka producer: each lands in the dead-letter topic with its reason, parks its
 * key (later events of the key wait behind it, in order) while other keys flow, and an operator retries or discards.
 */
@QuarkusTest
class DeadLetterTest {

    private static final String REGISTERED = "cabinet.user.registered.v1";
    private static final String UPDATED = "cabinet.user.profile-updated.v1";

    @Inject
    ParkedKeys parkedKeys;

    @Inject
    Rejections rejections;

    @Test
    void anUnreadableEventParksItsKeyUntilAnOperatorDiscardsItAndRetriesTheRestInOrder() throws Exception {
        String user = newUserId();
        String other = newUserId();
        String poison = Ids.newId();
        String first = Ids.newId();
        produce(user, poison, REGISTERED, "{not json");
        produce(user, first, REGISTERED, registered(user, "First"));
        produce(other, Ids.newId(), REGISTERED, registered(other, "Other"));

        awaitOk("/users/" + other).body("name", equalTo("Other"));
        String parkedKey = new LogKey(Topics.USERS, 0, user).id();
        JsonPath parked = awaitParkedEvents(parkedKey, 2);
        assertEquals(Topics.USERS, parked.getString("topic"));
        assertEquals(user, parked.getString("recordKey"));
        assertEquals(poison, parked.getString("eventId"));
        assertEquals(List.of(poison, first), parked.getList("events.eventId"));
        asOperator().get("/admin/parked-keys").then().statusCode(200).body("items.id", hasItem(parkedKey));
        given().get("/users/" + user).then().statusCode(404);
        given().get("/commands/" + first).then().statusCode(200)
                .body("status", equalTo("parked")).body("reason", containsString("waits behind"));
        // The partition's progress moved past the parked events: a read with the token of one says it is parked,
        // rather than answering from before it.
        String partition = Topics.USERS + ":" + parked.getInt("partition") + ":";
        String firstToken = partition + parked.getList("events.offset", Long.class).get(1);
        given().header("Consistency-Token", firstToken).get("/users/" + other).then().statusCode(503)
                .contentType("application/problem+json").body("type", equalTo("urn:cabinet:problem:parked"))
                .body("detail", containsString(firstToken + " is parked"));

        ConsumerRecord<String, byte[]> deadLetter = single(EventLogReader.recordsWithKey(Topics.DEAD_LETTERS, user));
        assertEquals("{not json", new String(deadLetter.value(), StandardCharsets.UTF_8));
        assertEquals(poison, EventLogReader.header(deadLetter, "ce_id"));
        assertEquals(Topics.USERS, EventLogReader.header(deadLetter, DeadLetterTopic.TOPIC));
        assertEquals(parked.getString("firstOffset"), EventLogReader.header(deadLetter, DeadLetterTopic.OFFSET));
        assertEquals(parked.getString("reason"), EventLogReader.header(deadLetter, DeadLetterTopic.REASON));
        assertThat(parked.getString("reason"), containsString("data is not JSON"));

        String second = Ids.newId();
        produce(user, second, UPDATED, "{\"userId\":\"" + user + "\",\"name\":\"Second\"}");
        awaitParkedEvents(parkedKey, 3);

        asOperator().post("/admin/parked-keys/" + parkedKey + "/retry").then().statusCode(409)
                .contentType("application/problem+json").body("detail", containsString("still cannot be applied"));
        asOperator().post("/admin/parked-keys/" + parkedKey + "/discard?events=first").then().statusCode(200)
                .body("state", equalTo("parked")).body("discarded", equalTo(1));
        // A discarded event is never applied: a token naming it reads the state without it.
        given().header("Consistency-Token", partition + parked.getList("events.offset", Long.class).get(0))
                .get("/users/" + other).then().statusCode(200);
        given().get("/commands/" + poison).then().statusCode(200).body("status", equalTo("discarded"))
                .body("reason", containsString("ops"));
        asOperator().post("/admin/parked-keys/" + parkedKey + "/retry").then().statusCode(200)
                .body("state", equalTo("released")).body("applied", equalTo(2));

        given().get("/users/" + user).then().statusCode(200).body("name", equalTo("Second"));
        given().header("Consistency-Token", firstToken).get("/users/" + user).then().statusCode(200);
        given().get("/commands/" + first).then().statusCode(404);
        asOperator().get("/admin/parked-keys/" + parkedKey).then().statusCode(404);
        produce(user, Ids.newId(), UPDATED, "{\"userId\":\"" + user + "\",\"name\":\"Third\"}");
        await().atMost(PROJECTION_WAIT).until(() -> "Third".equals(given().get("/users/" + user).path("name")));
    }

    @Test
    void eventsThatBreakTheContractAreDeadLetteredWithTheirReasonAndDiscardingReleasesTheKey() throws Exception {
        Map<String, String> reasons = Map.of(
                "{\"userId\":\"%s\"}", "name",
                "{\"userId\":\"%s\",\"name\":\"" + "x".repeat(20_001) + "\",\"email\":\"x@example.com\","
                        + "\"registeredAt\":\"2026-01-01T00:00:00.000Z\"}", "name",
                "{\"userId\":\"%s\",\"name\":\"N\",\"email\":\"n@example.com\",\"registeredAt\":\"2026-01-01\"}",
                "registeredAt",
                "{\"userId\":\"%s\",\"name\":7,\"email\":\"n@example.com\",\"registeredAt\":\"2026-01-01T00:00:00.000Z\"}",
                "breaks the cabinet.user.registered.v1 schema: /name");
        for (Map.Entry<String, String> violation : reasons.entrySet()) {
            String user = newUserId();
            String eventId = Ids.newId();
            produce(user, eventId, REGISTERED, violation.getKey().formatted(user));
            String parkedKey = new LogKey(Topics.USERS, 0, user).id();
            awaitParkedEvents(parkedKey, 1);
            asOperator().get("/admin/parked-keys/" + parkedKey).then()
                    .body("reason", containsString(violation.getValue()));
            asOperator().post("/admin/parked-keys/" + parkedKey + "/discard").then().statusCode(200)
                    .body("state", equalTo("released")).body("discarded", equalTo(1));
            given().get("/commands/" + eventId).then().body("status", equalTo("discarded"));
            produce(user, Ids.newId(), REGISTERED, registered(user, "Fine"));
            awaitOk("/users/" + user).body("name", equalTo("Fine"));
        }
    }

    @Test
    void aNewerEventVersionThanTheProjectorKnowsWaitsInsteadOfBeingLost() throws Exception {
        String user = newUserId();
        produce(user, Ids.newId(), "cabinet.user.registered.v9", registered(user, "Future"));
        String parkedKey = new LogKey(Topics.USERS, 0, user).id();
        awaitParkedEvents(parkedKey, 1);
        asOperator().get("/admin/parked-keys/" + parkedKey).then()
                .body("eventType", equalTo("cabinet.user.registered.v9"))
                .body("reason", equalTo("no projector handles event type cabinet.user.registered.v9: a newer version "
                        + "than this projector reads (cabinet.user.registered.v1); the key resumes when a projector "
                        + "that reads it starts"));
        asOperator().post("/admin/parked-keys/" + parkedKey + "/retry").then().statusCode(409);
        asOperator().get("/admin/parked-keys/" + parkedKey).then().statusCode(200);
    }

    /**
     * A type 450 KB long (another producer's header) is quoted by the reason, which the parked key, the parked event and
     * the outcome store: whole, those items passed DynamoDB's 400 KB, the record could not be parked and its
     * partition stopped. The reason is cut short; the key parks, and the partition's other keys go on.
     */
    @Test
    void aReasonQuotingAHugeHeaderIsCutShortAndTheRecordParks() throws Exception {
        String user = newUserId();
        produce(user, Ids.newId(), "cabinet.user." + "x".repeat(450_000), registered(user, "Huge"));
        String parkedKey = new LogKey(Topics.USERS, 0, user).id();
        awaitParkedEvents(parkedKey, 1);
        String reason = asOperator().get("/admin/parked-keys/" + parkedKey).then().statusCode(200).extract()
                .path("reason");
        assertTrue(reason.length() <= UnappliableEventException.REASON_MAX, "reason of " + reason.length());
        String other = newUserId();
        produce(other, Ids.newId(), REGISTERED, registered(other, "Other"));
        awaitOk("/users/" + other).body("name", equalTo("Other"));
        asOperator().post("/admin/parked-keys/" + parkedKey + "/discard").then().statusCode(200);
    }

    /**
     * One retry or discard of a key at a time (an operator's, or each new projector's after an upgrade): two walks of
     * its events at once could apply them twice or out of order. A second one while the first holds the key's lease
     * is a 409 and changes nothing; once the lease ends, it runs.
     */
    @Test
    void aRetryOrDiscardWhileAnotherHoldsTheKeyIsAConflictAndChangesNothing() throws Exception {
        String user = newUserId();
        String eventId = Ids.newId();
        produce(user, eventId, REGISTERED, "{\"userId\":\"" + user + "\"}");
        String parkedKey = new LogKey(Topics.USERS, 0, user).id();
        awaitParkedEvents(parkedKey, 1);
        String other = "another-" + Ids.newId();
        assertTrue(parkedKeys.lease(parkedKey, other, Duration.ofMinutes(1)).await().atMost(Duration.ofSeconds(10)));
        for (String walk : List.of("/retry", "/discard")) {
            asOperator().post("/admin/parked-keys/" + parkedKey + walk).then().statusCode(409)
                    .body("detail", containsString("under way"));
        }
        awaitParkedEvents(parkedKey, 1);
        given().get("/commands/" + eventId).then().body("status", equalTo("parked"));
        assertFalse(parkedKeys.lease(parkedKey, "a-third", Duration.ofMinutes(1)).await()
                .atMost(Duration.ofSeconds(10)), "the lease is held");

        parkedKeys.endLease(parkedKey, other).await().atMost(Duration.ofSeconds(10));
        asOperator().post("/admin/parked-keys/" + parkedKey + "/discard").then().statusCode(200)
                .body("state", equalTo("released")).body("discarded", equalTo(1));
        given().get("/commands/" + eventId).then().body("status", equalTo("discarded"));
    }

    /**
     * The projector parks a record behind its key only while the key is parked: released meanwhile (an operator's retry
     * ended), the record is left to be applied, and nothing of the park stays, its outcome included, which is written
     * before the key's update so that a retry walking the record cannot finish before it.
     */
    @Test
    void aRecordParkedBehindAKeyReleasedMeanwhileLeavesNoParkedEventAndNoOutcome() {
        String user = newUserId();
        String eventId = Ids.newId();
        ConsumerRecord<String, byte[]> record = lateRegistration(user, eventId, 1_000_000_000L);
        assertEquals(ParkedKeys.Behind.TO_APPLY, parkedKeys.parkBehind(record).await().atMost(Duration.ofSeconds(10)),
                "no key to park behind");
        given().get("/commands/" + eventId).then().statusCode(404);
        asOperator().get("/admin/parked-keys/" + new LogKey(Topics.USERS, 0, user).id()).then().statusCode(404);
        assertTrue(parkedKeys.events(new LogKey(Topics.USERS, 0, user).id()).await().atMost(Duration.ofSeconds(10))
                .isEmpty(), "the parked event was released");
    }

    /**
     * An operator's discard walks a record the projector is parking behind its key, and releases the key before the
     * projector's update of the key lands: the projector then finds the key gone, yet must not apply the record, which
     * a discarded event never is; its outcome says discarded.
     */
    @Test
    void aRecordDiscardedInTheInstantItIsParkedBehindItsKeyIsNeverApplied() throws Exception {
        String user = newUserId();
        produce(user, Ids.newId(), REGISTERED, "{not json");
        String parkedKey = new LogKey(Topics.USERS, 0, user).id();
        awaitParkedEvents(parkedKey, 1);
        String eventId = Ids.newId();
        long offset = 1_000_000_001L;
        ConsumerRecord<String, byte[]> record = lateRegistration(user, eventId, offset);
        AttributeValue parkedOffset = AttributeValue.fromN(Long.toString(offset));
        try {
            CompletableFuture<Void> discarded = BeforeCall.of("UpdateItem", request ->
                    request instanceof UpdateItemRequest update
                            && update.key().equals(KeyPlan.PARKED_KEY.key(parkedKey).toAttributes())
                            && update.expressionAttributeValues().containsValue(parkedOffset),
                    request -> asOperator().post("/admin/parked-keys/" + parkedKey + "/discard").then().statusCode(200)
                            .body("state", equalTo("released")).body("discarded", equalTo(2)));
            assertEquals(ParkedKeys.Behind.DISCARDED, parkedKeys.parkBehind(record).await()
                    .atMost(Duration.ofSeconds(30)), "the discard walked it: not to be applied");
            discarded.get(30, TimeUnit.SECONDS);
        } finally {
            BeforeCall.disarm();
        }
        given().get("/commands/" + eventId).then().statusCode(200).body("status", equalTo("discarded"));
        asOperator().get("/admin/parked-keys/" + parkedKey).then().statusCode(404);
        assertTrue(parkedKeys.events(parkedKey).await().atMost(Duration.ofSeconds(10)).isEmpty());

        // The same park made again (a transient error re-subscribes it whole; or the partition's next owner makes it)
        // writes the parked event again, finds the key gone and the event discarded: it leaves nothing parked behind.
        assertEquals(ParkedKeys.Behind.DISCARDED, parkedKeys.parkBehind(record).await()
                .atMost(Duration.ofSeconds(30)));
        assertTrue(parkedKeys.events(parkedKey).await().atMost(Duration.ofSeconds(10)).isEmpty());
        given().get("/commands/" + eventId).then().statusCode(200).body("status", equalTo("discarded"));
    }

    /**
     * A rejection takes the place of a parked mark (an operator's retry rejected the event after the projector's late
     * mark, which the retry clears again at its end), and stays: a later rejection of the same event, or that clear,
     * leaves the first.
     */
    @Test
    void aRejectionTakesThePlaceOfAParkedMarkAndTheFirstRejectionStays() {
        String user = newUserId();
        String eventId = Ids.newId();
        long offset = 1_000_000_002L;
        ConsumerRecord<String, byte[]> record = lateRegistration(user, eventId, offset);
        Duration wait = Duration.ofSeconds(10);
        parkedKeys.markParked(record, "waits behind an earlier event of its key").await().atMost(wait);
        ReceivedEvent event = new ReceivedEvent(eventId, REGISTERED, user, null, Instant.now(), null,
                new LogPosition(Topics.USERS, 0, offset));
        rejections.reject(event, "the first reason").await().atMost(wait);
        rejections.reject(event, "a later reason").await().atMost(wait);
        parkedKeys.clearOutcome(eventId).await().atMost(wait);
        given().get("/commands/" + eventId).then().statusCode(200).body("status", equalTo("rejected"))
                .body("reason", equalTo("the first reason"));
    }

    /**
     * A command's outcome is read consistently: the projector writes it before its partition's progress, which the
     * request reads next, strongly; a stale read of the outcome beside a fresh progress would answer "applied" for an
     * event it parked or rejected. (dynalite answers every read consistently: the request is what can be checked.)
     */
    @Test
    void aCommandsOutcomeIsReadConsistently() throws Exception {
        String eventId = Ids.newId();
        Map<String, AttributeValue> outcome = KeyPlan.EVENT_OUTCOME.key(eventId).toAttributes();
        CompletableFuture<Boolean> consistent = new CompletableFuture<>();
        try {
            BeforeCall.of("GetItem", request -> request instanceof GetItemRequest get && get.key().equals(outcome),
                    request -> consistent.complete(((GetItemRequest) request).consistentRead()));
            given().get("/commands/" + eventId).then().statusCode(404);
        } finally {
            BeforeCall.disarm();
        }
        assertEquals(Boolean.TRUE, consistent.get(10, TimeUnit.SECONDS));
    }

    @Test
    void onlyOperatorsSeeOrTouchParkedKeys() {
        given().get("/admin/parked-keys").then().statusCode(401).contentType("application/problem+json");
        as(newUserId()).get("/admin/parked-keys").then().statusCode(403).contentType("application/problem+json");
        as(newUserId()).post("/admin/parked-keys/anything/retry").then().statusCode(403);
        asOperator().post("/admin/parked-keys/" + Ids.newId() + "/retry").then().statusCode(404);
        asOperator().post("/admin/parked-keys/" + Ids.newId() + "/discard?events=some").then().statusCode(400);
    }

    private static JsonPath awaitParkedEvents(String parkedKey, int count) {
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> asOperator().get("/admin/parked-keys/" + parkedKey)
                .then().statusCode(200).body("events", hasSize(count)));
        return asOperator().get("/admin/parked-keys/" + parkedKey).then().extract().jsonPath();
    }

    /** A registration of {@code user} as the projector would receive it at {@code offset} of partition 0. */
    private static ConsumerRecord<String, byte[]> lateRegistration(String user, String eventId, long offset) {
        ConsumerRecord<String, byte[]> record = new ConsumerRecord<>(Topics.USERS, 0, offset, user,
                registered(user, "Late").getBytes(StandardCharsets.UTF_8));
        record.headers().add(CloudEventHeaders.ID, eventId.getBytes(StandardCharsets.UTF_8));
        record.headers().add(CloudEventHeaders.TYPE, REGISTERED.getBytes(StandardCharsets.UTF_8));
        return record;
    }

    private static ConsumerRecord<String, byte[]> single(List<ConsumerRecord<String, byte[]>> records) {
        assertEquals(1, records.size(), "dead letters: " + records.size());
        return records.get(0);
    }

    private static String registered(String user, String name) {
        return "{\"userId\":\"" + user + "\",\"name\":\"" + name + "\",\"email\":\"" + user + "@example.com\","
                + "\"registeredAt\":\"2026-01-01T00:00:00.000Z\"}";
    }

    private static void produce(String key, String eventId, String type, String json) throws Exception {
        ForeignProducer.produce(Topics.USERS, key, eventId, type, json);
    }
}
