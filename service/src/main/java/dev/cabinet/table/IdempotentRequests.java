package dev.cabinet.table;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.iam.CallsAws;
import dev.cabinet.iam.IamRole;
import dev.cabinet.table.ItemUpdate;
import dev.cabinet.table.Items;
import dev.cabinet.shared.Ids;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.TableConfig;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The table side of Idempotency-Key (idempotency/ holds the HTTP side): a reservation made by a conditional update (the first request with a key wins, with
 * no read first; its condition has an OR, which {@link ItemUpdate} does not build) that keeps a seed for the request's
 * ids, the answer stored once the command is done, and the stored answer read back for a retry.
 */
@ApplicationScoped
@CallsAws(IamRole.API)
public class IdempotentRequests {

    static final String IN_PROGRESS = "in-progress";
    static final String DONE = "done";
    static final String UNKNOWN = "outcome-unknown";
    /** The request holding the key: only it settles the key. */
    static final String RESERVED_BY = "reservedBy";
    /** How long answers are kept (the item's time to live). */
    static final Duration KEPT = Duration.ofDays(1);
    /**
     * How long a reservation blocks retries when its request never finished (the instance died), at least: the caller
     * holds it longer when its request may take longer to answer ({@link #reserve}).
     */
    public static final Duration RESERVATION = Duration.ofSeconds(30);

    private final DynamoDbAsyncClient dynamo;
    private final String table;

    IdempotentRequests(DynamoDbAsyncClient dynamo, TableConfig config) {
        this.dynamo = dynamo;
        this.table = config.name();
    }

    static Key key(String requestId) {
        return KeyPlan.IDEMPOTENT_REQUEST.key(requestId);
    }

    /**
     * A key reserved for a request: the seed of its ids, and whether the request takes over an earlier attempt that
     * may have appended its event (its outcome unknown, or its instance gone): such a request must never free the key,
     * or a further retry would make new ids and could append the command a second time. {@code holder} names this
     * request on the item: only it settles the key ({@link #complete}, {@link #outcomeUnknown}, {@link #release}).
     */
    public record Reservation(String seed, boolean takesOver, String holder) {
    }

    /**
     * Reserves the key for this request, for {@code holdFor}, or reads whose it is when another request holds or has
     * used it. A request whose outcome was unknown (or whose instance died, its reservation past) is taken over by its
     * retry, which keeps the seed, so that it makes the same event and resource ids (even past the key's day: the same
     * request's retry is safest with the same ids). Otherwise a key past its day is void, though DynamoDB deletes it
     * only within days: a second call, made only then, reserves it afresh, with a new seed.
     */
    public Uni<Claim> reserve(String requestId, String fingerprint, Duration holdFor) {
        Instant now = Instant.now();
        String proposed = Ids.newId();
        String holder = Ids.newId();
        Map<String, AttributeValue> values = Map.ofEntries(
                Map.entry(":by", AttributeValue.fromS(holder)),
                Map.entry(":type", AttributeValue.fromS(KeyPlan.IDEMPOTENT_REQUEST.name())),
                Map.entry(":fingerprint", AttributeValue.fromS(fingerprint)),
                Map.entry(":inProgress", AttributeValue.fromS(IN_PROGRESS)),
                Map.entry(":unknown", AttributeValue.fromS(UNKNOWN)),
                Map.entry(":until", AttributeValue.fromN(Long.toString(now.plus(holdFor).getEpochSecond()))),
                Map.entry(":ttl", AttributeValue.fromN(Long.toString(now.plus(KEPT).getEpochSecond()))),
                Map.entry(":now", AttributeValue.fromN(Long.toString(now.getEpochSecond()))),
                Map.entry(":seed", AttributeValue.fromS(proposed)));
        Map<String, String> names = Map.of("#type", KeyPlan.TYPE, "#state", "state", "#until", "reservedUntil",
                "#ttl", KeyPlan.TTL_ATTRIBUTE, "#by", RESERVED_BY);
        UpdateItemRequest reserve = UpdateItemRequest.builder().tableName(table).key(key(requestId).toAttributes())
                .updateExpression("SET #type = :type, fingerprint = :fingerprint, #state = :inProgress, "
                        + "#until = :until, #ttl = :ttl, seed = if_not_exists(seed, :seed), #by = :by")
                // "OR #by = :by": the SDK resends a call whose answer it did not get (an attempt timeout, a reset
                // connection), and the resent reservation must find the key its own first attempt reserved, not
                // another request's (which would answer 409 to a request that is alone).
                .conditionExpression("attribute_not_exists(pk) OR #by = :by OR (fingerprint = :fingerprint AND "
                        + "(#state = :unknown OR (#state = :inProgress AND #until < :now)))")
                .expressionAttributeNames(names).expressionAttributeValues(values)
                .returnValues(ReturnValue.ALL_NEW)
                .build();
        // The expired key's answer goes with it: its seed too, so the new request makes ids of its own.
        Map<String, String> afreshNames = new HashMap<>(names);
        afreshNames.put("#status", "status");
        afreshNames.put("#location", "location");
        UpdateItemRequest afresh = reserve.toBuilder()
                .updateExpression("SET #type = :type, fingerprint = :fingerprint, #state = :inProgress, "
                        + "#until = :until, #ttl = :ttl, seed = :seed, #by = :by "
                        + "REMOVE #status, body, #location, preferenceApplied")
                .conditionExpression("#ttl < :now OR #by = :by")
                .expressionAttributeNames(afreshNames)
                .expressionAttributeValues(without(values, ":unknown"))
                .build();
        // Refused, the key's item is read once: what the request answers from (a replay, 409, 422), unless it is past
        // its day, which only then costs the second write. dynalite cannot return the item a condition refused.
        return claim(reserve, proposed, holder, () -> find(requestId).chain(held ->
                held.filter(item -> expired(item, now)).isEmpty() ? Uni.createFrom().item(Claim.heldBy(held))
                        : claim(afresh, proposed, holder, () -> find(requestId).map(Claim::heldBy))));
    }

    /** The claim the update makes, or, refused, the one {@code refused} finds. */
    private Uni<Claim> claim(UpdateItemRequest update, String proposed, String holder,
            Supplier<Uni<Claim>> refused) {
        return update(update, proposed, holder).chain(reserved -> reserved.isPresent()
                ? Uni.createFrom().item(new Claim(reserved, Optional.empty())) : refused.get());
    }

    /**
     * What a request's claim of its key came to: the key {@code reserved} for it, or else the item of the request that
     * {@code held} it (empty when it was freed meanwhile).
     */
    public record Claim(Optional<Reservation> reserved, Optional<Map<String, AttributeValue>> held) {

        static Claim heldBy(Optional<Map<String, AttributeValue>> held) {
            return new Claim(Optional.empty(), held);
        }
    }

    private static boolean expired(Map<String, AttributeValue> item, Instant now) {
        return Items.has(item, KeyPlan.TTL_ATTRIBUTE)
                && Items.number(item, KeyPlan.TTL_ATTRIBUTE) < now.getEpochSecond();
    }

    /** The values but one: DynamoDB refuses a value that no expression uses. */
    private static Map<String, AttributeValue> without(Map<String, AttributeValue> values, String name) {
        Map<String, AttributeValue> rest = new HashMap<>(values);
        rest.remove(name);
        return rest;
    }

    private Uni<Optional<Reservation>> update(UpdateItemRequest request, String proposed, String holder) {
        return Uni.createFrom().completionStage(() -> dynamo.updateItem(request))
                // The seed kept is an earlier attempt's unless it is the one proposed now (a resend of this call
                // finds its own).
                .map(response -> response.attributes().get("seed").s())
                .map(seed -> Optional.of(new Reservation(seed, !seed.equals(proposed), holder)))
                .onFailure(ConditionalCheckFailedException.class).recoverWithItem(Optional.empty());
    }

    /** A consistent read of the home table, where {@link #reserve} wrote. */
    public Uni<Optional<Map<String, AttributeValue>>> find(String requestId) {
        return Uni.createFrom().completionStage(() -> dynamo.getItem(b -> b.tableName(table)
                .key(key(requestId).toAttributes()).consistentRead(true)))
                .map(Items::found);
    }

    /**
     * Stores the answer of the request that holds the reservation, with the headers a replay repeats ({@code Location},
     * and {@code Preference-Applied} when it waited). Nothing when another request holds the key now (this one's was
     * taken over, or freed by a resent release and reserved again).
     */
    public Uni<Void> complete(String requestId, String holder, int status, String body, String location,
            String preferenceApplied) {
        UpdateItemRequest update = ItemUpdate.of(key(requestId))
                .set("state", DONE)
                .set("status", status)
                .set("body", body)
                .set("location", location)
                .set("preferenceApplied", preferenceApplied)
                .onlyIfEquals(RESERVED_BY, holder)
                .toRequest(table);
        return Uni.createFrom().completionStage(() -> dynamo.updateItem(update))
                .onFailure(ConditionalCheckFailedException.class).recoverWithNull()
                .replaceWithVoid();
    }

    /**
     * Keeps the key, seed and fingerprint of a request whose outcome is unknown (the log did not acknowledge its event
     * in time), so that its retry is let in at once and makes the same ids; nothing when another request holds it.
     */
    public Uni<Void> outcomeUnknown(String requestId, String holder) {
        UpdateItemRequest update = ItemUpdate.of(key(requestId)).set("state", UNKNOWN)
                .onlyIfEquals(RESERVED_BY, holder).toRequest(table);
        return Uni.createFrom().completionStage(() -> dynamo.updateItem(update))
                .onFailure(ConditionalCheckFailedException.class).recoverWithNull()
                .replaceWithVoid();
    }

    /**
     * Frees the key after a refused or failed request, so a corrected retry may use it. Never for a request that took
     * over an earlier attempt ({@link Reservation#takesOver}): that one stores its answer, or leaves the key's outcome
     * unknown. Only while this request holds it: a delete the SDK resent after its first attempt went through must
     * not free the reservation of the retry that came in between.
     */
    public Uni<Void> release(String requestId, String holder) {
        return Uni.createFrom().completionStage(() -> dynamo.deleteItem(b -> b.tableName(table)
                .key(key(requestId).toAttributes()).conditionExpression("#by = :by")
                .expressionAttributeNames(Map.of("#by", RESERVED_BY))
                .expressionAttributeValues(Map.of(":by", AttributeValue.fromS(holder)))))
                .onFailure(ConditionalCheckFailedException.class).recoverWithNull()
                .replaceWithVoid();
    }

    public static boolean isDone(Map<String, AttributeValue> item) {
        return DONE.equals(Items.string(item, "state"));
    }
}
