package dev.cabinet.table;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.iam.CallsAws;
import dev.cabinet.iam.IamRole;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Removes the read model from a table that no projector writes any more (the one that answered reads before a
 * blue/green cut-over): an erasure made after the cut-over reaches only the table the projectors write, so a person
 * erased since would keep their name and text there, in clear. What a table holds besides the read model stays, which
 * only the home table has: the people's data keys, the read-model pointer, the idempotency records and the order id
 * reservations; so does any item the key plan does not know. An operator's job, which scans, as a rebuild's
 * verification does. Blocking: operator requests run on worker threads.
 */
@ApplicationScoped
@CallsAws(IamRole.OPERATOR)
public class RetiredReadModel {

    /** The item types that are not the read model: kept. */
    static final Set<String> KEPT_TYPES = Set.of(KeyPlan.SUBJECT_KEY.name(), KeyPlan.ACTIVE_READ_MODEL.name(),
            KeyPlan.IDEMPOTENT_REQUEST.name(), KeyPlan.ORDER_ID_RESERVATION.name());
    private static final int PAGE = 100;
    /** BatchWriteItem's limit. */
    private static final int BATCH = 25;
    private static final long UNPROCESSED_WAIT_NANOS = 50_000_000L;

    private final DynamoDbAsyncClient dynamo;

    RetiredReadModel(DynamoDbAsyncClient dynamo) {
        this.dynamo = dynamo;
    }

    /** What a purge did: the items it looked at, those it deleted, and those it kept. */
    public record Purge(long scanned, long deleted, long kept) {
    }

    /** Deletes every item of the read model from {@code table}, page by page: memory stays bounded by a page. */
    public Purge purge(String table) {
        long scanned = 0;
        long deleted = 0;
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            ScanResponse page = dynamo.scan(b -> b.tableName(table).limit(PAGE).consistentRead(true)
                    .projectionExpression("#pk, #sk").expressionAttributeNames(Map.of("#pk", Key.PK, "#sk", Key.SK))
                    .exclusiveStartKey(from)).join();
            List<Key> doomed = page.items().stream().map(Key::of).filter(RetiredReadModel::ofTheReadModel).toList();
            for (int i = 0; i < doomed.size(); i += BATCH) {
                delete(table, doomed.subList(i, Math.min(doomed.size(), i + BATCH)));
            }
            scanned += page.items().size();
            deleted += doomed.size();
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (start != null);
        return new Purge(scanned, deleted, scanned - deleted);
    }

    /** Whether the item at this key is the read model's: of a type the key plan knows and does not keep. */
    static boolean ofTheReadModel(Key key) {
        return KeyPlan.typeOf(key).filter(type -> !KEPT_TYPES.contains(type.name())).isPresent();
    }

    /** One BatchWriteItem of deletions, resubmitting what DynamoDB left unprocessed (it does so under throttling). */
    private void delete(String table, List<Key> keys) {
        List<WriteRequest> writes = new ArrayList<>(keys.stream()
                .map(key -> WriteRequest.builder().deleteRequest(d -> d.key(key.toAttributes())).build()).toList());
        while (!writes.isEmpty()) {
            List<WriteRequest> sent = List.copyOf(writes);
            BatchWriteItemResponse answer = dynamo.batchWriteItem(b -> b.requestItems(Map.of(table, sent))).join();
            writes = new ArrayList<>(answer.unprocessedItems().getOrDefault(table, List.of()));
            if (!writes.isEmpty()) {
                LockSupport.parkNanos(UNPROCESSED_WAIT_NANOS);
            }
        }
    }
}
