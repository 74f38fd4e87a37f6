package dev.cabinet.table;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.iam.CallsAws;
import dev.cabinet.iam.IamRole;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * Order ids taken by placements, in the home table (customer/ places the orders): a rule over a set (an order id is
 * used once, across customers) that no aggregate's stream can enforce, since two customers' placements are decided
 * and projected independently. The decision's GSI1 lookup sees only projected orders; the reservation, a conditional
 * update made before the event is appended, closes the window in between without a read first.
 */
@ApplicationScoped
@CallsAws(IamRole.API)
public class OrderIdReservations {

    /** Far longer than any projection lag the service tolerates: past it, the order's GSI1 entry answers for the id. */
    static final Duration KEPT = Duration.ofDays(1);

    private final DynamoDbAsyncClient dynamo;
    private final String table;

    OrderIdReservations(DynamoDbAsyncClient dynamo, TableConfig config) {
        this.dynamo = dynamo;
        this.table = config.name();
    }

    /** One placement of an order id: a retry of it (same customer, time and total) is the same placement. */
    public record Placement(String orderId, String customerId, String placedAt, String total) {
    }

    /**
     * Takes the order id for the placement; false when another placement holds it. The same placement finds its own
     * reservation (a retry with the same Idempotency-Key, or the SDK resending a call whose answer it lost).
     */
    public Uni<Boolean> reserve(Placement placement) {
        UpdateItemRequest reserve = UpdateItemRequest.builder().tableName(table).key(key(placement).toAttributes())
                .updateExpression("SET #type = :type, orderId = :orderId, customerId = :customerId, "
                        + "placedAt = :placedAt, #total = :total, #ttl = :ttl")
                .conditionExpression("attribute_not_exists(pk) OR (customerId = :customerId AND placedAt = :placedAt "
                        + "AND #total = :total)")
                .expressionAttributeNames(Map.of("#type", KeyPlan.TYPE, "#total", "total",
                        "#ttl", KeyPlan.TTL_ATTRIBUTE))
                .expressionAttributeValues(Map.of(
                        ":type", AttributeValue.fromS(KeyPlan.ORDER_ID_RESERVATION.name()),
                        ":orderId", AttributeValue.fromS(placement.orderId()),
                        ":customerId", AttributeValue.fromS(placement.customerId()),
                        ":placedAt", AttributeValue.fromS(placement.placedAt()),
                        ":total", AttributeValue.fromS(placement.total()),
                        ":ttl", AttributeValue.fromN(Long.toString(Instant.now().plus(KEPT).getEpochSecond()))))
                .build();
        return Uni.createFrom().completionStage(() -> dynamo.updateItem(reserve))
                .replaceWith(true)
                .onFailure(ConditionalCheckFailedException.class).recoverWithItem(false);
    }

    /**
     * Frees the id after a placement whose event certainly did not reach the log; kept when the outcome is unknown, so
     * that the retry with the same key finds it, and a second placement cannot take the id meanwhile.
     */
    public Uni<Void> release(Placement placement) {
        DeleteItemRequest release = DeleteItemRequest.builder().tableName(table).key(key(placement).toAttributes())
                .conditionExpression("customerId = :customerId AND placedAt = :placedAt AND #total = :total")
                .expressionAttributeNames(Map.of("#total", "total"))
                .expressionAttributeValues(Map.of(
                        ":customerId", AttributeValue.fromS(placement.customerId()),
                        ":placedAt", AttributeValue.fromS(placement.placedAt()),
                        ":total", AttributeValue.fromS(placement.total())))
                .build();
        return Uni.createFrom().completionStage(() -> dynamo.deleteItem(release))
                .onFailure(ConditionalCheckFailedException.class).recoverWithNull()
                .replaceWithVoid();
    }

    private static Key key(Placement placement) {
        return KeyPlan.ORDER_ID_RESERVATION.key(placement.orderId());
    }
}
