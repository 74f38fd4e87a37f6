package dev.cabinet.benchmark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/** Recorded request bodies read back into the SDK's requests, on the replay's table. */
class WireRequestsTest {

    @Test
    void anUpdateKeepsItsKeyExpressionsAndValuesOfEveryTypeOnTheReplaysTable() {
        String line = "DynamoDB_20120810.UpdateItem\t{\"TableName\":\"cabinet\",\"Key\":{\"pk\":{\"S\":\"POST#p1\"},"
                + "\"sk\":{\"S\":\"METADATA\"}},\"UpdateExpression\":\"SET #t = :t ADD tokens :tok\","
                + "\"ConditionExpression\":\"attribute_not_exists(v) OR v < :v\",\"ExpressionAttributeNames\":{\"#t\":"
                + "\"title\"},\"ExpressionAttributeValues\":{\":t\":{\"S\":\"Hello\"},\":v\":{\"N\":\"3\"},\":tok\":"
                + "{\"SS\":[\"e1\",\"e2\"]},\":m\":{\"M\":{\"on\":{\"BOOL\":true},\"none\":{\"NULL\":true},\"l\":{\"L\":"
                + "[{\"N\":\"1\"}]}}}},\"ReturnValues\":\"ALL_NEW\"}";

        WireRequests.Call call = WireRequests.read(line, "bench-raw");

        assertEquals("UpdateItem", call.operation());
        assertTrue(call.isWrite());
        UpdateItemRequest update = (UpdateItemRequest) call.request();
        assertEquals("bench-raw", update.tableName());
        assertEquals(Map.of("pk", AttributeValue.fromS("POST#p1"), "sk", AttributeValue.fromS("METADATA")), update.key());
        assertEquals("SET #t = :t ADD tokens :tok", update.updateExpression());
        assertEquals("attribute_not_exists(v) OR v < :v", update.conditionExpression());
        assertEquals(Map.of("#t", "title"), update.expressionAttributeNames());
        assertEquals(AttributeValue.fromN("3"), update.expressionAttributeValues().get(":v"));
        assertEquals(List.of("e1", "e2"), update.expressionAttributeValues().get(":tok").ss());
        AttributeValue nested = update.expressionAttributeValues().get(":m");
        assertEquals(true, nested.m().get("on").bool());
        assertEquals(true, nested.m().get("none").nul());
        assertEquals(List.of(AttributeValue.fromN("1")), nested.m().get("l").l());
        assertEquals(ReturnValue.ALL_NEW, update.returnValues());
    }

    @Test
    void aBatchReadAsksTheReplaysTableForTheSameKeys() {
        String line = "DynamoDB_20120810.BatchGetItem\t{\"RequestItems\":{\"cabinet-rebuild\":{\"Keys\":[{\"pk\":{\"S\":"
                + "\"POST#p1\"},\"sk\":{\"S\":\"METADATA\"}},{\"pk\":{\"S\":\"USER#u1\"},\"sk\":{\"S\":\"PROFILE\"}}],"
                + "\"ConsistentRead\":true}}}";

        WireRequests.Call call = WireRequests.read(line, "bench-raw-rebuild");

        assertFalse(call.isWrite());
        BatchGetItemRequest batch = (BatchGetItemRequest) call.request();
        assertEquals(Set.of("bench-raw-rebuild"), batch.requestItems().keySet());
        assertEquals(2, batch.requestItems().get("bench-raw-rebuild").keys().size());
        assertEquals(AttributeValue.fromS("USER#u1"), batch.requestItems().get("bench-raw-rebuild").keys().get(1).get("pk"));
        assertTrue(batch.requestItems().get("bench-raw-rebuild").consistentRead());
    }

    @Test
    void anOperationTheProjectorDoesNotMakeIsRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> WireRequests.read("DynamoDB_20120810.Scan\t{\"TableName\":\"cabinet\"}", "bench-raw"));
    }
}
