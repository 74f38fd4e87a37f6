package dev.cabinet.table;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import dev.cabinet.iam.CallsAws;
import dev.cabinet.iam.IamRole;
import dev.cabinet.shared.Ids;
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
    private static final String RESERVED_BY = "reservedBy";
    private static final Logger LOG = Logger.getLogger(OrderIdReservations.class);

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
     * A reservation attempt: {@code attempt} names this request's call, kept on the item only when the call creates
     * it, so that {@link #release} frees nothing an earlier attempt of the same placement made (its event may be in
     * the log).
     */
    public record Reserving(Placement placement, String attempt) {
        public static Reserving of(Placement placement) {
            return new Reserving(placement, Ids.newId());
        }
    }

    /**
     * Takes the order id for the placement; false when another placement holds it. The same placement finds its own
     * reservation (a retry with the same Idempotency-Key, or the SDK resending a call whose answer it lost); one past
     * its time to live is void (DynamoDB deletes such items only within a few days), and is taken over in a second
     * call that names this request as the one that made it (a first call cannot tell the two apart in its update).
     */
    public Uni<Boolean> reserve(Reserving reserving) {
        return update(reserving, "attribute_not_exists(pk) OR (customerId = :customerId AND placedAt = :placedAt AND "
                + "#total = :total)", "if_not_exists(#by, :by)")
                .chain(taken -> taken ? Uni.createFrom().item(true) : update(reserving, "#ttl < :now", ":by"));
    }

    private Uni<Boolean> update(Reserving reserving, String condition, String reservedBy) {
        Placement placement = reserving.placement();
        Instant now = Instant.now();
        UpdateItemRequest reserve = UpdateItemRequest.builder().tableName(table).key(key(placement).toAttributes())
                .updateExpression("SET #type = :type, orderId = :orderId, customerId = :customerId, "
                        + "placedAt = :placedAt, #total = :total, #ttl = :ttl, #by = " + reservedBy)
                .conditionExpression(condition)
                .expressionAttributeNames(Map.of("#type", KeyPlan.TYPE, "#total", "total",
                        "#ttl", KeyPlan.TTL_ATTRIBUTE, "#by", RESERVED_BY))
                .expressionAttributeValues(values(reserving, now, condition.contains(":now")))
                .build();
        return Uni.createFrom().completionStage(() -> dynamo.updateItem(reserve))
                .replaceWith(true)
                .onFailure(ConditionalCheckFailedException.class).recoverWithItem(false);
    }

    /** The values an update names (DynamoDB refuses one it does not use). */
    private static Map<String, AttributeValue> values(Reserving reserving, Instant now, boolean withNow) {
        Placement placement = reserving.placement();
        Map<String, AttributeValue> values = new HashMap<>(Map.of(
                ":type", AttributeValue.fromS(KeyPlan.ORDER_ID_RESERVATION.name()),
                ":orderId", AttributeValue.fromS(placement.orderId()),
                ":customerId", AttributeValue.fromS(placement.customerId()),
                ":placedAt", AttributeValue.fromS(placement.placedAt()),
                ":total", AttributeValue.fromS(placement.total()),
                ":ttl", AttributeValue.fromN(Long.toString(now.plus(KEPT).getEpochSecond())),
                ":by", AttributeValue.fromS(reserving.attempt())));
        if (withNow) {
            values.put(":now", AttributeValue.fromN(Long.toString(now.getEpochSecond())));
        }
        return values;
    }

    /**
     * Frees the id after a placement whose event certainly did not reach the log, if this attempt made the
     * reservation: one an earlier attempt of the placement made is kept (its outcome may be unknown), and so is one
     * whose release fails (logged; it blocks the id until it expires).
     */
    public Uni<Void> release(Reserving reserving) {
        DeleteItemRequest release = DeleteItemRequest.builder().tableName(table)
                .key(key(reserving.placement()).toAttributes())
                .conditionExpression("#by = :by")
                .expressionAttributeNames(Map.of("#by", RESERVED_BY))
                .expressionAttributeValues(Map.of(":by", AttributeValue.fromS(reserving.attempt())))
                .build();
        return Uni.createFrom().completionStage(() -> dynamo.deleteItem(release))
                .onFailure(ConditionalCheckFailedException.class).recoverWithNull()
                .onFailure().invoke(e -> LOG.warnf("The reservation of order id %s was not freed (%s): it blocks the "
                        + "id until it expires", reserving.placement().orderId(), e.toString()))
                .onFailure().recoverWithNull()
                .replaceWithVoid();
    }

    private static Key key(Placement placement) {
        return KeyPlan.ORDER_ID_RESERVATION.key(placement.orderId());
    }
}
