package dev.cabinet.capacity;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.LogPosition;
import dev.cabinet.eventlog.Topics;
import dev.cabinet.folder.FolderEvent;
import dev.cabinet.folder.FolderEvent.FolderCreated;
import dev.cabinet.folder.FolderEvent.FolderMoved;
import dev.cabinet.folder.FolderEvent.FolderRenamed;
import dev.cabinet.projection.contract.ReceivedEvent;
import dev.cabinet.projection.execution.ModelProjection;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.KeyPlan;
import io.quarkus.test.junit.QuarkusTest;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

/**
 * A walk down the folder tree (Derivations), in the model store, where a test can stop it between rounds: a parent
 * changed right after the walk wrote it, and a loop two crossing moves made, redone.
 */
@QuarkusTest
class FolderWalksTest {

    private static final String OWNER = "u01M8Y0000000000000000000A3";
    private static final String TOP = "01M8Y0000000000000000000F1";
    private static final String MIDDLE = "01M8Y0000000000000000000F2";
    private static final String BOTTOM = "01M8Y0000000000000000000F3";
    private static final String LEAF = "01M8Y0000000000000000000F4";

    @Inject
    CapacityModels models;

    /**
     * A walk hands each child its parent as the walk's own write of it left it, with no read. Here the parent changes
     * right after that write, as another walk's write would, and nothing else reaches the grandchild: its second look
     * at its parent must find the change and derive again.
     */
    @Test
    void aChildDerivedFromItsParentAsTheWalkWroteItDerivesAgainWhenTheParentChangedSince() {
        ModelStore store = new ModelStore();
        ModelProjection projection = models.projection(store);
        createTopMiddleBottom(store, projection);
        assertEquals("/Top/Middle/Bottom", path(store, BOTTOM));

        CompletableFuture<Void> rename = projection.apply(received(2, new FolderRenamed(TOP, "Renamed")))
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

    /**
     * Two moves of different folders that cross (each read the other before either was written) make a loop, which
     * the derivation leaves as it is. A redo of one of them after a crash walks its whole subtree again: its walk must
     * end at the folder it leaves, not go round the loop.
     */
    @Test
    void aRedoOfAMoveThatClosedALoopEndsItsWalk() {
        ModelStore store = new ModelStore();
        ModelProjection projection = models.projection(store);
        apply(store, projection, 1, new FolderCreated(TOP, "First", null, OWNER, "2026-06-01T10:00:00.000Z"));
        apply(store, projection, 1, new FolderCreated(MIDDLE, "Second", null, OWNER, "2026-06-01T10:00:01.000Z"));
        store.drive(projection.check());

        ReceivedEvent firstUnderSecond = received(2, new FolderMoved(TOP, MIDDLE));
        CompletableFuture<Void> one = projection.apply(firstUnderSecond).subscribeAsCompletionStage();
        CompletableFuture<Void> other = projection.apply(received(2, new FolderMoved(MIDDLE, TOP)))
                .subscribeAsCompletionStage();
        store.drive(CompletableFuture.allOf(one, other));
        store.drive(projection.check());
        assertEquals(MIDDLE, parentOf(store, TOP), "both moves were applied: a loop");
        assertEquals(TOP, parentOf(store, MIDDLE));

        CompletableFuture<Void> redo = projection.apply(firstUnderSecond).subscribeAsCompletionStage();
        int rounds = 0;
        while (!redo.isDone()) {
            assertTrue(store.round(), "the redo waits for the store");
            assertTrue(++rounds < 100, "the redo's walk goes round the loop");
        }
        redo.join();
    }

    /**
     * A rename passes its path down writing each subfolder as its entry under the parent tells it, with no read of
     * it; a rename to the same name passes nothing down and writes nothing below the folder.
     */
    @Test
    void aRenameWritesTheSubtreeFromItsEntriesAndASameNameRenameWritesNothingBelow() {
        ModelStore store = new ModelStore();
        ModelProjection projection = models.projection(store);
        createTopMiddleBottom(store, projection);
        store.clearCalls();

        apply(store, projection, 2, new FolderRenamed(TOP, "Renamed"));
        assertEquals("/Renamed/Middle/Bottom", path(store, BOTTOM));
        // Read only as a parent, by its child's look after the child's write; the bottom folder not at all.
        assertEquals(List.of(1L, 0L), List.of(reads(store, MIDDLE), reads(store, BOTTOM)),
                "each subfolder written from its entry: " + store.calls());

        store.drive(projection.check());
        Map<String, AttributeValue> middle = store.item(KeyPlan.FOLDER.key(MIDDLE));
        Map<String, AttributeValue> bottom = store.item(KeyPlan.FOLDER.key(BOTTOM));
        apply(store, projection, 3, new FolderRenamed(TOP, "Renamed"));
        store.drive(projection.check());
        assertEquals(middle, store.item(KeyPlan.FOLDER.key(MIDDLE)), "a same-name rename leaves the subtree");
        assertEquals(bottom, store.item(KeyPlan.FOLDER.key(BOTTOM)));
    }

    /**
     * A walk made when the batch ends that fails part-way down is made again by BatchEndChecks. The failed attempt
     * brought the bottom folder up to date before the leaf's write failed; made again, the walk reads and walks
     * everything below, or the leaf would keep its old path for good (the bottom folder, up to date, would pass
     * nothing down). A replay's order: the subfolders come before their parent, whose creation then passes its path
     * down (DeriveChildren).
     */
    @Test
    void aBatchEndWalkMadeAgainAfterAFailureReachesWhatTheFailedAttemptLeftBehind() {
        ModelStore store = new ModelStore();
        ModelProjection projection = models.projection(store);
        apply(store, projection, 1, new FolderCreated(TOP, "Top", null, OWNER, "2026-06-01T10:00:00.000Z"));
        apply(store, projection, 1, new FolderCreated(BOTTOM, "Bottom", MIDDLE, OWNER, "2026-06-01T10:00:02.000Z"));
        apply(store, projection, 1, new FolderCreated(LEAF, "Leaf", BOTTOM, OWNER, "2026-06-01T10:00:03.000Z"));
        store.drive(projection.check());
        assertEquals("/Bottom/Leaf", path(store, LEAF), "the middle folder is not there yet");
        apply(store, projection, 1, new FolderCreated(MIDDLE, "Middle", TOP, OWNER, "2026-06-01T10:00:01.000Z"));

        store.failNextUpdate(KeyPlan.FOLDER.key(LEAF));
        // The store's rounds, and between them the retry's backoff: a timer, not the store.
        CompletableFuture<Void> checked = projection.check().toCompletableFuture();
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            store.round();
            return checked.isDone();
        });
        checked.join();

        assertEquals("/Top/Middle/Bottom", path(store, BOTTOM));
        assertEquals("/Top/Middle/Bottom/Leaf", path(store, LEAF));
    }

    /** Top, Middle under it and Bottom under Middle, created in that order and checked. */
    private static void createTopMiddleBottom(ModelStore store, ModelProjection projection) {
        apply(store, projection, 1, new FolderCreated(TOP, "Top", null, OWNER, "2026-06-01T10:00:00.000Z"));
        apply(store, projection, 1, new FolderCreated(MIDDLE, "Middle", TOP, OWNER, "2026-06-01T10:00:01.000Z"));
        apply(store, projection, 1, new FolderCreated(BOTTOM, "Bottom", MIDDLE, OWNER, "2026-06-01T10:00:02.000Z"));
        store.drive(projection.check());
    }

    private static long reads(ModelStore store, String folderId) {
        return store.calls().stream().filter(call -> call.operation().contains("Get")
                && call.key().contains(folderId + " / METADATA")).count();
    }

    private static String path(ModelStore store, String folderId) {
        return store.item(KeyPlan.FOLDER.key(folderId)).get(Attributes.PATH).s();
    }

    private static String parentOf(ModelStore store, String folderId) {
        return store.item(KeyPlan.FOLDER.key(folderId)).get(Attributes.PARENT_ID).s();
    }

    private static void apply(ModelStore store, ModelProjection projection, long offset, FolderEvent data) {
        store.drive(projection.apply(received(offset, data)).subscribeAsCompletionStage());
    }

    /** The folder event at that offset of its folder's stream, with an id of its own. */
    private static ReceivedEvent received(long offset, FolderEvent data) {
        String type = data instanceof FolderCreated ? FolderEvent.CREATED.name()
                : data instanceof FolderMoved ? FolderEvent.MOVED.name() : FolderEvent.RENAMED.name();
        String key = data.folderId();
        return new ReceivedEvent("01M8YF0000000000000000" + key.substring(22) + offset, type, key,
                OWNER, Instant.parse("2026-06-01T10:00:00Z"), data, new LogPosition(Topics.FOLDERS, 0, offset));
    }
}
