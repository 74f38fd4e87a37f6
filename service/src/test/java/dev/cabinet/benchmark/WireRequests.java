package dev.cabinet.benchmark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.core.protocol.MarshallingType;
import software.amazon.awssdk.core.traits.ListTrait;
import software.amazon.awssdk.core.traits.MapTrait;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * A DynamoDB request as it went over the wire (the JSON body a store recorded) turned back into the AWS SDK's request,
 * to be made again through the same client. The SDK has no public reader for request bodies; its own field metadata
 * (each member's JSON name and type) says how to read one, so this reads any operation the projector makes.
 */
final class WireRequests {

    private static final ObjectMapper JSON = new ObjectMapper();

    private WireRequests() {
    }

    /** One recorded call: its operation (UpdateItem, BatchGetItem, ...) and the SDK request, ready to send. */
    record Call(String operation, DynamoDbRequest request) {

        boolean isWrite() {
            return switch (operation) {
                case "PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem" -> true;
                default -> false;
            };
        }

        CompletableFuture<?> sendTo(DynamoDbAsyncClient dynamo) {
            return switch (operation) {
                case "UpdateItem" -> dynamo.updateItem((UpdateItemRequest) request);
                case "PutItem" -> dynamo.putItem((PutItemRequest) request);
                case "DeleteItem" -> dynamo.deleteItem((DeleteItemRequest) request);
                case "BatchWriteItem" -> dynamo.batchWriteItem((BatchWriteItemRequest) request);
                case "GetItem" -> dynamo.getItem((GetItemRequest) request);
                case "BatchGetItem" -> dynamo.batchGetItem((BatchGetItemRequest) request);
                case "Query" -> dynamo.query((QueryRequest) request);
                default -> throw new IllegalArgumentException("not an operation the projector makes: " + operation);
            };
        }
    }

    /**
     * A recorded line (the X-Amz-Target, a tab, the body) as a call on {@code table}: every table the body names is
     * replaced by it, so that the replay writes into a table of its own.
     */
    static Call read(String line, String table) {
        int tab = line.indexOf('\t');
        String target = line.substring(0, tab);
        String operation = operation(line);
        try {
            ObjectNode body = (ObjectNode) JSON.readTree(line.substring(tab + 1));
            onTable(body, table);
            SdkPojo builder = switch (operation) {
                case "UpdateItem" -> (SdkPojo) UpdateItemRequest.builder();
                case "PutItem" -> (SdkPojo) PutItemRequest.builder();
                case "DeleteItem" -> (SdkPojo) DeleteItemRequest.builder();
                case "BatchWriteItem" -> (SdkPojo) BatchWriteItemRequest.builder();
                case "GetItem" -> (SdkPojo) GetItemRequest.builder();
                case "BatchGetItem" -> (SdkPojo) BatchGetItemRequest.builder();
                case "Query" -> (SdkPojo) QueryRequest.builder();
                default -> throw new IllegalArgumentException("not an operation the projector makes: " + target);
            };
            return new Call(operation, (DynamoDbRequest) build(builder, body));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The operation of a recorded line: its X-Amz-Target without the API version (DynamoDB_20120810.). */
    static String operation(String line) {
        String target = line.substring(0, line.indexOf('\t'));
        return target.substring(target.indexOf('.') + 1);
    }

    private static void onTable(ObjectNode body, String table) {
        if (body.has("TableName")) {
            body.put("TableName", table);
        }
        if (body.get("RequestItems") instanceof ObjectNode items) {
            ObjectNode renamed = JSON.createObjectNode();
            items.fields().forEachRemaining(entry -> renamed.set(table, entry.getValue()));
            body.set("RequestItems", renamed);
        }
    }

    /** Fills a builder from JSON by the SDK's own description of its members, and builds it. */
    private static Object build(SdkPojo builder, JsonNode json) {
        for (SdkField<?> field : builder.sdkFields()) {
            JsonNode value = json.get(field.locationName());
            if (value != null && !value.isNull()) {
                field.set(builder, value(field, value));
            }
        }
        return ((software.amazon.awssdk.utils.builder.SdkBuilder<?, ?>) builder).build();
    }

    private static Object value(SdkField<?> field, JsonNode json) {
        MarshallingType<?> type = field.marshallingType();
        if (type == MarshallingType.STRING) {
            return json.asText();
        } else if (type == MarshallingType.BOOLEAN) {
            return json.asBoolean();
        } else if (type == MarshallingType.INTEGER) {
            return json.asInt();
        } else if (type == MarshallingType.LONG) {
            return json.asLong();
        } else if (type == MarshallingType.SDK_BYTES) {
            try {
                return SdkBytes.fromByteArray(json.binaryValue());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        } else if (type == MarshallingType.SDK_POJO) {
            return build(field.constructor().get(), json);
        } else if (type == MarshallingType.LIST) {
            SdkField<?> member = field.getRequiredTrait(ListTrait.class).memberFieldInfo();
            List<Object> list = new ArrayList<>();
            json.forEach(element -> list.add(value(member, element)));
            return list;
        } else if (type == MarshallingType.MAP) {
            SdkField<?> member = field.getRequiredTrait(MapTrait.class).valueFieldInfo();
            Map<String, Object> map = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> entries = json.fields(); entries.hasNext();) {
                Map.Entry<String, JsonNode> entry = entries.next();
                map.put(entry.getKey(), value(member, entry.getValue()));
            }
            return map;
        }
        throw new IllegalArgumentException("a member of a type the projector's requests do not have: " + field.memberName()
                + " (" + type + ")");
    }
}
