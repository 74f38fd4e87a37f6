package dev.cabinet.deadletter;

import static dev.cabinet.support.Api.PROJECTION_WAIT;
import static dev.cabinet.support.Api.as;
import static dev.cabinet.support.Api.asOperator;
import static dev.cabinet.support.Api.newUserId;
import static dev.cabinet.support.Api.register;
import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.Topics;
import dev.cabinet.projection.contract.UnknownEventTypeException;
import dev.cabinet.projection.failure.ParkedKeys;
import dev.cabinet.projection.ordering.PartitionHandover;
import dev.cabinet.projection.ordering.Rebalances;
import dev.cabinet.projection.ordering.LogKey;
import dev.cabinet.support.EventLogReader;
import dev.cabinet.table.Attributes;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.common.annotation.Identifier;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A rolling upgrade's end (issue 40, item 3): a key that an older projector parked because it did not know an event's
 * type resumes by itself once a projector that handles the type takes partitions; a key parked for a type still
 * unknown, or for another reason, waits for the operator.
 */
@QuarkusTest
class UpgradeResumeTest {

    @Inject
    ParkedKeys parkedKeys;

    @Inject
    @Identifier(PartitionHandover.NAME)
    PartitionHandover assignment;

    @Test
    void aKeyParkedByAnOlderProjectorForATypeItDidNotKnowResumesWhenThisOneTakesPartitions() {
        String user = newUserId();
        register(user, "Before");
        ConsumerRecord<String, byte[]> registered = EventLogReader.recordsWithKey(Topics.USERS, user).get(0);
        String type = new String(registered.headers().lastHeader("ce_type").value(), StandardCharsets.UTF_8);
        // What an older projector, without this type, left: the key parked at this event, with that reason.
        parkedKeys.park(registered, UnknownEventTypeException.REASON + type).await().atMost(PROJECTION_WAIT);
        String parkedKey = LogKey.of(registered).id();
        asOperator().get("/admin/parked-keys/" + parkedKey).then().statusCode(200)
                .body("reason", equalTo(UnknownEventTypeException.REASON + type));

        // The rebalance that the older projector's leaving causes, as the engine takes it from the consumer's listener.
        Rebalances.assign(assignment, List.of(new TopicPartition(Topics.USERS, registered.partition())));

        await().atMost(PROJECTION_WAIT).untilAsserted(() -> asOperator().get("/admin/parked-keys/" + parkedKey)
                .then().statusCode(404));
        as(user).body(Map.of("name", "After")).patch("/users/" + user).then().statusCode(202);
        // The profile exists already: wait for the rename itself, not for a 200 that "Before" answers too.
        await().atMost(PROJECTION_WAIT).untilAsserted(() -> given().get("/users/" + user).then().statusCode(200)
                .body("name", equalTo("After")));
    }

    @Test
    void onlyKeysParkedForATypeThisProjectorHandlesAreResumed() {
        List<Map<String, AttributeValue>> keys = List.of(
                key("a", UnknownEventTypeException.REASON + "cabinet.user.registered.v1", "cabinet.user.registered.v1"),
                key("b", UnknownEventTypeException.REASON + "cabinet.user.registered.v9", "cabinet.user.registered.v9"),
                key("c", "data breaks the cabinet.user.registered.v1 schema: /name", "cabinet.user.registered.v1"));
        assertEquals(List.of("a"), UpgradeResume.resumable(keys, type -> type.endsWith(".v1")));
    }

    private static Map<String, AttributeValue> key(String id, String reason, String type) {
        return Map.of(Attributes.PARKED_KEY_ID, AttributeValue.fromS(id), Attributes.REASON,
                AttributeValue.fromS(reason), Attributes.EVENT_TYPE, AttributeValue.fromS(type));
    }
}
