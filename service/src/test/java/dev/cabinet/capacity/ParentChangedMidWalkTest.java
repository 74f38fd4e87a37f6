package dev.cabinet.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.eventlog.EventType;
import dev.cabinet.eventlog.LogPosition;
import dev.cabinet.eventlog.Topics;
import dev.cabinet.folder.FolderEvent;
import dev.cabinet.folder.FolderEvent.FolderCreated;
import dev.cabinet.folder.FolderEvent.FolderRenamed;
import dev.cabinet.projection.contract.ReceivedEvent;
import dev.cabinet.projection.execution.ModelProjection;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.Key;
import dev.cabinet.table.KeyPlan;
import io.quarkus.test.junit.QuarkusTest;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

/**
 * A walk down the folder tree hands each child its parent as the walk's own write of it left it, with no read
 * (Derivations). Here the parent changes right after that write, as another walk's write would, and nothing else
 * reaches the grandchild: its second look at its parent must find the change and derive again.
 */
@QuarkusTest
class ParentChangedMidWalkTest {

    private static final String OWNER = "u01M8Y0000000000000000000A3";
    private static final String TOP = "01M8Y0000000000000000000F1";
    private static final String MIDDLE = "01M8Y0000000000000000000F2";
    private static final String BOTTOM = "01M8Y0000000000000000000F3";

    @Inject
    CapacityModels models;

    @Test
    void aChildDerivedFromItsParentAsTheWalkWroteItDerivesAgainWhenTheParentChangedSince() {
        ModelStore store = new ModelStore();
        ModelProjection projection = models.projection(store);
        apply(store, projection, 1, TOP, new FolderCreated(TOP, "Top", null, OWNER, "2026-06-01T10:00:00.000Z"));
        apply(store, projection, 1, MIDDLE, new FolderCreated(MIDDLE, "Middle", TOP, OWNER,
                "2026-06-01T10:00:01.000Z"));
        apply(store, projection, 1, BOTTOM, new FolderCreated(BOTTOM, "Bottom", MIDDLE, OWNER,
                "2026-06-01T10:00:02.000Z"));
        store.drive(projection.check());
        assertEquals("/Top/Middle/Bottom", path(store, BOTTOM));

        CompletableFuture<Void> rename = projection.apply(received(2, TOP, new FolderRenamed(TOP, "Renamed")))
                .subscribeAsCompletionStage();
        while (!path(store, MIDDLE).startsWith("/Renamed/")) {
            assertTrue(store.round(), "the walk reaches the middle folder");
        }
        // Changed right after the walk wrote it (its revision moves), with no walk of its own to reach its child.
        Map<String, AttributeValue> middle = new HashMap<>(store.item(KeyPlan.FOLDER.key(MIDDLE)));
        middle.put(Attributes.NAME, AttributeValue.fromS("Moved"));
        middle.put(Attributes.PATH, AttributeValue.fromS("/Renamed/Moved"));
        middle.put(Attributes.REV, AttributeValue.fromN(Long.toString(Long.parseLong(middle.get(Attributes.REV).n())
                + 1)));
        store.drive(store.putItem(PutItemRequest.builder().tableName("model").item(middle).build()));
        store.drive(rename);
        store.drive(projection.check());

        assertEquals("/Renamed/Moved/Bottom", path(store, BOTTOM));
    }

    private static String path(ModelStore store, String folderId) {
        Key key = KeyPlan.FOLDER.key(folderId);
        return store.item(key).get(Attributes.PATH).s();
    }

    private static void apply(ModelStore store, ModelProjection projection, long offset, String key, DomainEvent data) {
        EventType<?> type = data instanceof FolderCreated ? FolderEvent.CREATED : FolderEvent.RENAMED;
        store.drive(projection.apply(new ReceivedEvent("01M8YF0000000000000000" + key.substring(22) + offset,
                type.name(), key, OWNER, Instant.parse("2026-06-01T10:00:00Z"), data,
                new LogPosition(Topics.FOLDERS, 0, offset))).subscribeAsCompletionStage());
    }

    private static ReceivedEvent received(long offset, String key, FolderRenamed data) {
        return new ReceivedEvent("01M8YR0000000000000000" + key.substring(22) + offset, FolderEvent.RENAMED.name(),
                key, OWNER, Instant.parse("2026-06-01T10:00:00Z"), data, new LogPosition(Topics.FOLDERS, 0, offset));
    }
}
