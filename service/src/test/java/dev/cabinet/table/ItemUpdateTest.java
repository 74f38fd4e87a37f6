package dev.cabinet.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

import dev.cabinet.table.Key;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

class ItemUpdateTest {

    private static final Key KEY = new Key("POST#p1", "METADATA");

    @Test
    void aGuardedUpdateSetsTheVersionAndOnlyAppliesToOlderVersions() {
        UpdateItemRequest request = ItemUpdate.of(KEY, "Post").set("title", "Hi").guardedBy("postVersion", 7)
                .toRequest("cabinet");
        assertEquals("SET #a0 = :v0, #a1 = :v1, #a2 = :v2", request.updateExpression());
        assertEquals("(attribute_not_exists(#a2) OR #a2 < :v2)", request.conditionExpression());
        assertEquals("postVersion", request.expressionAttributeNames().get("#a2"));
        assertEquals(AttributeValue.fromN("7"), request.expressionAttributeValues().get(":v2"));
        assertEquals("type", request.expressionAttributeNames().get("#a0"));
    }

    @Test
    void aNullValueRemovesTheAttribute() {
        UpdateItemRequest request = ItemUpdate.of(KEY).set("avatarUrl", null).set("name", "A").toRequest("cabinet");
        assertEquals("SET #a1 = :v0 REMOVE #a0", request.updateExpression());
    }

    @Test
    void conditionsAreAndedAndNamesReused() {
        UpdateItemRequest request = ItemUpdate.of(KEY).onlyIfExists().onlyIfLacks("publishedAt").set("publishedAt", "t")
                .toRequest("cabinet");
        assertEquals("attribute_exists(#a0) AND attribute_not_exists(#a1)", request.conditionExpression());
        assertEquals("SET #a1 = :v0", request.updateExpression());
    }

    @Test
    void countersIncrementFromZeroAndTrackPendingTokensInASet() {
        UpdateItemRequest request = ItemUpdate.of(KEY).increment("postCount", 1).addToSet("pendingCounts", "e1")
                .onlyIfSetLacks("pendingCounts", "e1").toRequest("cabinet");
        assertEquals("SET #a0 = if_not_exists(#a0, :v0) + :v1 ADD #a1 :v2", request.updateExpression());
        assertEquals("NOT contains(#a1, :v3)", request.conditionExpression());
    }

    @Test
    void anUpdateWithoutConditionsHasNoConditionExpression() {
        assertFalse(ItemUpdate.of(KEY).set("a", 1).toRequest("t").conditionExpression() != null);
    }
}
