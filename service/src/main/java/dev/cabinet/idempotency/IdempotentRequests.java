package dev.cabinet.idempotency;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.iam.CallsAws;
import dev.cabinet.iam.IamRole;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Items;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.TableConfig;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The table side of Idempotency-Key: a reservation made by a conditional put (the first request with a key wins, with
 * no read first; its condition has an OR, which {@link ItemUpdate} does not build), the answer stored once the command
 * is done, and the stored answer read back for a retry.
 */
@ApplicationScoped
@CallsAws(IamRole.API)
public class IdempotentRequests {

    static final String IN_PROGRESS = "in-progress";
    static final String DONE = "done";
    /** How long answers are kept (the item's time to live). */
    static final Duration KEPT = Duration.ofDays(1);
    /** How long a reservation blocks retries when its request never finished (the instance died). */
    static final Duration RESERVATION = Duration.ofSeconds(30);

    private final DynamoDbAsyncClient dynamo;
    private final String table;

    IdempotentRequests(DynamoDbAsyncClient dynamo, TableConfig config) {
        this.dynamo = dynamo;
        this.table = config.name();
    }

    static Key key(String requestId) {
        return KeyPlan.IDEMPOTENT_REQUEST.key(requestId);
    }

    /** Reserves the key for this request; false when another request holds or has used it. */
    Uni<Boolean> reserve(String requestId, String fingerprint) {
        Instant now = Instant.now();
        Map<String, AttributeValue> item = new HashMap<>(key(requestId).toAttributes());
        item.put(KeyPlan.TYPE, AttributeValue.fromS(KeyPlan.IDEMPOTENT_REQUEST.name()));
        item.put("fingerprint", AttributeValue.fromS(fingerprint));
        item.put("state", AttributeValue.fromS(IN_PROGRESS));
        item.put("reservedUntil", AttributeValue.fromN(Long.toString(now.plus(RESERVATION).getEpochSecond())));
        item.put(KeyPlan.TTL_ATTRIBUTE, AttributeValue.fromN(Long.toString(now.plus(KEPT).getEpochSecond())));
        return Uni.createFrom().completionStage(() -> dynamo.putItem(b -> b.tableName(table).item(item)
                .conditionExpression("attribute_not_exists(pk) OR (#state = :inProgress AND #until < :now)")
                .expressionAttributeNames(Map.of("#state", "state", "#until", "reservedUntil"))
                .expressionAttributeValues(Map.of(":inProgress", AttributeValue.fromS(IN_PROGRESS),
                        ":now", AttributeValue.fromN(Long.toString(now.getEpochSecond()))))))
                .map(response -> true)
                .onFailure(ConditionalCheckFailedException.class).recoverWithItem(false);
    }

    /** A consistent read of the home table, where {@link #reserve} wrote. */
    Uni<Optional<Map<String, AttributeValue>>> find(String requestId) {
        return Uni.createFrom().completionStage(() -> dynamo.getItem(b -> b.tableName(table)
                .key(key(requestId).toAttributes()).consistentRead(true)))
                .map(Items::found);
    }

    /** Stores the answer of the request that holds the reservation. */
    Uni<Void> complete(String requestId, int status, String body, String location) {
        UpdateItemRequest update = ItemUpdate.of(key(requestId))
                .set("state", DONE)
                .set("status", status)
                .set("body", body)
                .set("location", location)
                .toRequest(table);
        return Uni.createFrom().completionStage(() -> dynamo.updateItem(update))
                .onFailure(ConditionalCheckFailedException.class).recoverWithNull()
                .replaceWithVoid();
    }

    /** Frees the key after a refused or failed request, so a corrected retry may use it. */
    Uni<Void> release(String requestId) {
        return Uni.createFrom().completionStage(() -> dynamo.deleteItem(b -> b.tableName(table)
                .key(key(requestId).toAttributes()))).replaceWithVoid();
    }

    static boolean isDone(Map<String, AttributeValue> item) {
        return DONE.equals(Items.string(item, "state"));
    }
}
