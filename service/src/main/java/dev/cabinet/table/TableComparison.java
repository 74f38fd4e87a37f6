package dev.cabinet.table;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.iam.CallsAws;
import dev.cabinet.iam.IamRole;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * Compares two tables item by item: every item of each is looked up in the other (BatchGetItem, consistent), page by
 * page, so memory stays bounded by a page however large the tables are. This is an operator's job, the one place that
 * may Scan (for the operator's rebuild/); no request path does. What only the live table can hold (idempotency records, the read-model pointer,
 * projection progress, the people's data keys, order id reservations), the wall-clock times of projector bookkeeping
 * (with a parked key's recovery lease), the steps recorded for a redo,
 * the tokens of counts in flight and the counters' owner epochs (each table's projector has its own) are left out of
 * the comparison. An item past its time to live counts as absent: DynamoDB deletes such items in each table on its own
 * clock, within days, and a rebuild writes again the metric samples the live table dropped long ago.
 */
@ApplicationScoped
@CallsAws(IamRole.OPERATOR)
public class TableComparison {

    static final Set<String> NOT_COMPARED_TYPES = Set.of(KeyPlan.IDEMPOTENT_REQUEST.name(),
            KeyPlan.ACTIVE_READ_MODEL.name(), KeyPlan.PROJECTION_PROGRESS.name(), KeyPlan.SUBJECT_KEY.name(),
            KeyPlan.ORDER_ID_RESERVATION.name());
    static final Set<String> WALL_CLOCK_ATTRIBUTES = Set.of("appliedAt", "decidedAt", "parkedAt", "recoveredBy",
            "recoveringUntil");
    /**
     * The steps a root records for a redo (projection.PlanExecutor) hold what the decision read of other streams (the
     * version of a copied profile), which depends on how far those streams were projected at the time, not on the log.
     */
    static final Set<String> REDO_BOOKKEEPING = Set.of(Attributes.PENDING_STEPS);
    /**
     * The tokens of counts in flight: a token an older owner of a log partition keeps may stay on its counter for good
     * (docs/design.md, "Owner epochs"), and it says nothing about what the log holds.
     */
    static final Set<String> COUNT_BOOKKEEPING = Set.of(TableWriter.PENDING_COUNTS);
    private static final int PAGE = 100;

    private final DynamoDbAsyncClient dynamo;

    TableComparison(DynamoDbAsyncClient dynamo) {
        this.dynamo = dynamo;
    }

    /** One item that is not the same in both tables. */
    public record Difference(String pk, String sk, String kind, Set<String> attributes) {
    }

    /** What a comparison found: how many items it compared, and the differences (the first {@code limit}). */
    public record Result(long compared, long differenceCount, List<Difference> differences) {
    }

    public Result compare(String live, String candidate, int limit) {
        List<Difference> differences = new ArrayList<>();
        long[] counts = new long[2];
        walk(live, candidate, true, differences, counts, limit);
        walk(candidate, live, false, differences, counts, limit);
        return new Result(counts[0], counts[1], differences);
    }

    /** Re-reads one item from both tables: the same now, or still a difference. */
    public Difference recheck(String live, String candidate, Difference difference) {
        Key key = new Key(difference.pk(), difference.sk());
        return diff(read(live, key), read(candidate, key), key, Instant.now());
    }

    private void walk(String table, String other, boolean fromLive, List<Difference> differences, long[] counts,
            int limit) {
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            ScanResponse page = dynamo.scan(b -> b.tableName(table).limit(PAGE).consistentRead(true)
                    .exclusiveStartKey(from)).join();
            List<Map<String, AttributeValue>> items = page.items().stream().filter(TableComparison::compared).toList();
            Map<Key, Map<String, AttributeValue>> others = batchGet(other, items.stream().map(TableComparison::keyOf)
                    .toList());
            for (Map<String, AttributeValue> item : items) {
                Key key = keyOf(item);
                Map<String, AttributeValue> counterpart = others.get(key);
                if (fromLive) {
                    counts[0]++;
                } else if (counterpart != null) {
                    continue;   // compared in the first walk
                }
                Instant now = Instant.now();
                Difference difference = fromLive ? diff(item, counterpart, key, now) : diff(null, item, key, now);
                if (difference != null) {
                    counts[1]++;
                    if (differences.size() < limit) {
                        differences.add(difference);
                    }
                }
            }
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
    }

    static Difference diff(Map<String, AttributeValue> liveItem, Map<String, AttributeValue> candidateItem, Key key,
            Instant now) {
        Map<String, AttributeValue> live = unexpired(liveItem, now);
        Map<String, AttributeValue> candidate = unexpired(candidateItem, now);
        if (live == null && candidate == null) {
            return null;
        }
        if (live == null) {
            return new Difference(key.pk(), key.sk(), "missing-in-live", Set.of());
        }
        if (candidate == null) {
            return new Difference(key.pk(), key.sk(), "missing-in-candidate", Set.of());
        }
        Set<String> names = new TreeSet<>(live.keySet());
        names.addAll(candidate.keySet());
        names.removeAll(WALL_CLOCK_ATTRIBUTES);
        names.removeAll(REDO_BOOKKEEPING);
        names.removeAll(COUNT_BOOKKEEPING);
        names.removeIf(OwnerFence::isEpochAttribute);
        names.removeIf(name -> Objects.equals(live.get(name), candidate.get(name)));
        return names.isEmpty() ? null : new Difference(key.pk(), key.sk(), "different", names);
    }

    /** The item, or null once its time to live has passed (DynamoDB may not have deleted it yet). */
    private static Map<String, AttributeValue> unexpired(Map<String, AttributeValue> item, Instant now) {
        return item != null && Items.has(item, KeyPlan.TTL_ATTRIBUTE)
                && Items.number(item, KeyPlan.TTL_ATTRIBUTE) <= now.getEpochSecond() ? null : item;
    }

    private Map<Key, Map<String, AttributeValue>> batchGet(String table, List<Key> keys) {
        Map<Key, Map<String, AttributeValue>> found = new HashMap<>();
        List<Map<String, AttributeValue>> pending = keys.stream().map(Key::toAttributes).toList();
        while (!pending.isEmpty()) {
            List<Map<String, AttributeValue>> request = pending;
            BatchGetItemResponse response = dynamo.batchGetItem(b -> b.requestItems(Map.of(table,
                    KeysAndAttributes.builder().keys(request).consistentRead(true).build()))).join();
            response.responses().getOrDefault(table, List.of()).forEach(item -> found.put(keyOf(item), item));
            KeysAndAttributes left = response.unprocessedKeys().get(table);
            pending = left == null ? List.of() : left.keys();
        }
        return found;
    }

    private Map<String, AttributeValue> read(String table, Key key) {
        Map<String, AttributeValue> item = dynamo.getItem(b -> b.tableName(table).key(key.toAttributes())
                .consistentRead(true)).join().item();
        return item == null || item.isEmpty() || !compared(item) ? null : item;
    }

    private static boolean compared(Map<String, AttributeValue> item) {
        AttributeValue type = item.get(KeyPlan.TYPE);
        return type == null || !NOT_COMPARED_TYPES.contains(type.s());
    }

    private static Key keyOf(Map<String, AttributeValue> item) {
        return new Key(item.get(Key.PK).s(), item.get(Key.SK).s());
    }
}
