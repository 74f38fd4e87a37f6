package dev.cabinet.projection;

import java.util.Map;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import dev.cabinet.query.Items;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import dev.cabinet.table.TableConfig;
import io.smallrye.mutiny.Uni;
import software.amazon.awssdk.services.dynamodb.DynamoDbAsyncClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;

/** The projectors' access to the table: conditional updates, consistent reads, and exactly-once counters. */
@ApplicationScoped
public class ProjectionStore {

    /** The string set on a counter item that holds the tokens of counter changes still being completed. */
    static final String PENDING_COUNTS = "pendingCounts";

    private final DynamoDbAsyncClient dynamo;
    private final String table;

    ProjectionStore(DynamoDbAsyncClient dynamo, TableConfig config) {
        this.dynamo = dynamo;
        this.table = config.name();
    }

    /** Applies the update; {@code false} when its condition did not hold (already applied, or nothing to update). */
    public Uni<Boolean> update(ItemUpdate update) {
        return Uni.createFrom().completionStage(() -> dynamo.updateItem(update.toRequest(table)))
                .map(response -> true)
                .onFailure(ConditionalCheckFailedException.class).recoverWithItem(false);
    }

    /** A strongly consistent read, so a projector sees what earlier events of the same key wrote. */
    public Uni<Optional<Map<String, AttributeValue>>> read(Key key) {
        return Uni.createFrom().completionStage(() -> dynamo.getItem(b -> b.tableName(table).key(key.toAttributes())
                .consistentRead(true)))
                .map(Items::found);
    }

    /**
     * Changes a counter exactly once without transactions (dynalite has none, and DynamoDB's cost twice as much):
     * <ol>
     * <li>if the marker item already says it was counted, only step 4 remains;</li>
     * <li>change the counter, adding the token to its pending set, unless the token is already there;</li>
     * <li>flag the marker as counted;</li>
     * <li>remove the token from the counter's pending set.</li>
     * </ol>
     * A crash between any two steps is repaired by applying the event again: step 2's condition stops a second
     * change, step 1 stops one after the token was removed. The pending set holds only changes in flight.
     */
    public Uni<Void> countOnce(CounterChange change) {
        return read(change.marker())
                .map(marker -> marker.map(item -> item.containsKey(change.markerFlag())).orElse(true))
                .chain(alreadyCounted -> alreadyCounted ? Uni.createFrom().voidItem() : changeAndFlag(change))
                .chain(() -> update(ItemUpdate.of(change.counter()).deleteFromSet(PENDING_COUNTS, change.token()).onlyIfExists()))
                .replaceWithVoid();
    }

    private Uni<Void> changeAndFlag(CounterChange change) {
        ItemUpdate counter = ItemUpdate.of(change.counter())
                .setIfAbsent(KeyPlan.TYPE, change.counterType())
                .increment(change.attribute(), change.delta())
                .addToSet(PENDING_COUNTS, change.token())
                .onlyIfSetLacks(PENDING_COUNTS, change.token());
        ItemUpdate marker = ItemUpdate.of(change.marker()).set(change.markerFlag(), true).onlyIfExists();
        return update(counter).chain(() -> update(marker)).replaceWithVoid();
    }
}
