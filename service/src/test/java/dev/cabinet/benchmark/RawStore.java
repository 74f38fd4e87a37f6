package dev.cabinet.benchmark;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.Select;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The store without Cabinet: the same AWS SDK async client (Netty) the application uses, against the same dynalite,
 * for the raw limits the benchmark compares with.
 */
final class RawStore implements AutoCloseable {

    static final String BODY = "x".repeat(200);

    final DynamoDbAsyncClient dynamo;
    final String endpoint;

    RawStore(String endpoint) {
        this.endpoint = endpoint;
        dynamo = DynamoDbAsyncClient.builder().endpointOverride(URI.create(endpoint)).region(Region.US_EAST_1)
                .httpClient(NettyNioAsyncHttpClient.create())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .build();
    }

    /** A new table with the key schema and indexes of {@code like}, for raw writes that cost what Cabinet's cost. */
    void createLike(String like, String name) {
        TableDescription table = dynamo.describeTable(b -> b.tableName(like)).join().table();
        List<GlobalSecondaryIndex> indexes = table.globalSecondaryIndexes().stream()
                .map(index -> GlobalSecondaryIndex.builder().indexName(index.indexName()).keySchema(index.keySchema())
                        .projection(index.projection()).build())
                .toList();
        dynamo.createTable(CreateTableRequest.builder().tableName(name).keySchema(table.keySchema())
                .attributeDefinitions(table.attributeDefinitions()).billingMode(BillingMode.PAY_PER_REQUEST)
                .globalSecondaryIndexes(indexes).build()).join();
        while (!"ACTIVE".equals(dynamo.describeTable(b -> b.tableName(name)).join().table().tableStatusAsString())) {
            Thread.onSpinWait();
        }
    }

    CompletableFuture<?> getItem(String table, String pk, String sk) {
        return dynamo.getItem(b -> b.tableName(table).key(Map.of("pk", s(pk), "sk", s(sk))));
    }

    CompletableFuture<?> query(String table, String pk, String skPrefix, int limit) {
        return dynamo.query(b -> b.tableName(table).keyConditionExpression("pk = :pk AND begins_with(sk, :prefix)")
                .expressionAttributeValues(Map.of(":pk", s(pk), ":prefix", s(skPrefix)))
                .scanIndexForward(false).limit(limit));
    }

    /** The feed's raw equivalent: one Query per shard of GSI1, in parallel. */
    CompletableFuture<?> shardedQuery(String table, String prefix, int shards, int limit) {
        return CompletableFuture.allOf(IntStream.range(0, shards).mapToObj(shard -> dynamo.query(b -> b.tableName(table)
                .indexName("gsi1").keyConditionExpression("gsi1pk = :pk")
                .expressionAttributeValues(Map.of(":pk", s(prefix + shard))).scanIndexForward(false).limit(limit)))
                .toArray(CompletableFuture[]::new));
    }

    /** Items in the table, counted by a Scan (the benchmark may; the application never does). */
    long count(String table) {
        long count = 0;
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            var page = dynamo.scan(b -> b.tableName(table).select(Select.COUNT).exclusiveStartKey(from)).join();
            count += page.count();
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return count;
    }

    /** Writes 25 user-post summaries of filler users (numbered from {@code first}), retrying what the store left. */
    CompletableFuture<?> fillerBatch(String table, long first) {
        List<WriteRequest> writes = new ArrayList<>();
        for (long i = first; i < first + 25; i++) {
            Map<String, AttributeValue> item = new HashMap<>();
            item.put("pk", s("USER#filler-" + (i / 100)));
            item.put("sk", s("POST#2026-01-01T00:00:00.000Z#filler-" + i));
            item.put("type", s("UserPost"));
            item.put("postId", s("filler-" + i));
            item.put("title", s("Filler post " + i));
            item.put("status", s("draft"));
            item.put("createdAt", s("2026-01-01T00:00:00.000Z"));
            writes.add(WriteRequest.builder().putRequest(PutRequest.builder().item(item).build()).build());
        }
        return write(table, writes);
    }

    private CompletableFuture<?> write(String table, List<WriteRequest> writes) {
        return dynamo.batchWriteItem(b -> b.requestItems(Map.of(table, writes)))
                .thenCompose((BatchWriteItemResponse response) -> {
                    List<WriteRequest> left = response.unprocessedItems().getOrDefault(table, List.of());
                    return left.isEmpty() ? CompletableFuture.completedFuture(null) : write(table, left);
                });
    }

    static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    @Override
    public void close() {
        dynamo.close();
    }
}
