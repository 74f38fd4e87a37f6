package dev.cabinet.benchmark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.Supplier;

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

    /** The operations that write, by their names in X-Amz-Target. */
    static final Set<String> WRITES = Set.of("PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem");

    /** How to build and send each operation the projector makes. */
    record Operation(Supplier<?> builder, BiFunction<DynamoDbAsyncClient, DynamoDbRequest, CompletableFuture<?>> send) {
    }

    /** Every operation the projector makes, by its name in X-Amz-Target. */
    static final Map<String, Operation> OPERATIONS = Map.of(
            "UpdateItem", new Operation(UpdateItemRequest::builder, (d, r) -> d.updateItem((UpdateItemRequest) r)),
            "PutItem", new Operation(PutItemRequest::builder, (d, r) -> d.putItem((PutItemRequest) r)),
            "DeleteItem", new Operation(DeleteItemRequest::builder, (d, r) -> d.deleteItem((DeleteItemRequest) r)),
            "BatchWriteItem", new Operation(BatchWriteItemRequest::builder,
                    (d, r) -> d.batchWriteItem((BatchWriteItemRequest) r)),
            "GetItem", new Operation(GetItemRequest::builder, (d, r) -> d.getItem((GetItemRequest) r)),
            "BatchGetItem", new Operation(BatchGetItemRequest::builder, (d, r) -> d.batchGetItem((BatchGetItemRequest) r)),
            "Query", new Operation(QueryRequest::builder, (d, r) -> d.query((QueryRequest) r)));

    /** One recorded call: its operation (UpdateItem, BatchGetItem, ...) and the SDK request, ready to send. */
    record Call(String operation, DynamoDbRequest request) {

        boolean isWrite() {
            return WRITES.contains(operation);
        }

        CompletableFuture<?> sendTo(DynamoDbAsyncClient dynamo) {
            return OPERATIONS.get(operation).send().apply(dynamo, request);
        }
    }

    /**
     * A recorded line (the X-Amz-Target, a tab, the body) as a call on {@code table}: every table the body names is
     * replaced by it, so that the replay writes into a table of its own.
     */
    static Call read(String line, String table) {
        String operation = operation(line);
        Operation how = OPERATIONS.get(operation);
        if (how == null) {
            throw new IllegalArgumentException("not an operation the projector makes: " + operation);
        }
        try {
            ObjectNode body = (ObjectNode) JSON.readTree(line.substring(line.indexOf('\t') + 1));
            onTable(body, table);
            return new Call(operation, (DynamoDbRequest) build((SdkPojo) how.builder().get(), body));
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
