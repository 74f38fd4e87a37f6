package dev.cabinet.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.concurrent.CompletableFuture;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import dev.cabinet.eventlog.DomainEvent;
import dev.cabinet.eventlog.EventType;
import dev.cabinet.eventlog.LogPosition;
import dev.cabinet.eventlog.Topics;
import dev.cabinet.folder.FolderEvent;
import dev.cabinet.folder.FolderEvent.FolderCreated;
import dev.cabinet.folder.FolderEvent.FolderMoved;
import dev.cabinet.projection.contract.ReceivedEvent;
import dev.cabinet.projection.execution.ModelProjection;
import dev.cabinet.table.Attributes;
import dev.cabinet.table.KeyPlan;
import io.quarkus.test.junit.QuarkusTest;

/**
 * Two moves of different folders that cross (each read the other before either was written) make a loop, which the
 * derivation leaves as it is. A redo of one of them after a crash walks its whole subtree again: its walk must end at
 * the folder it leaves, not go round the loop.
 */
@QuarkusTest
class CrossedMovesRedoTest {

    private static final String OWNER = "u01M8Y0000000000000000000A4";
    private static final String FIRST = "01M8Y0000000000000000000F4";
    private static final String SECOND = "01M8Y0000000000000000000F5";

    @Inject
    CapacityModels models;

    @Test
    void aRedoOfAMoveThatClosedALoopEndsItsWalk() {
        ModelStore store = new ModelStore();
        ModelProjection projection = models.projection(store);
        store.drive(projection.apply(received(1, FIRST, new FolderCreated(FIRST, "First", null, OWNER,
                "2026-06-01T10:00:00.000Z"))).subscribeAsCompletionStage());
        store.drive(projection.apply(received(1, SECOND, new FolderCreated(SECOND, "Second", null, OWNER,
                "2026-06-01T10:00:01.000Z"))).subscribeAsCompletionStage());
        store.drive(projection.check());

        ReceivedEvent firstUnderSecond = received(2, FIRST, new FolderMoved(FIRST, SECOND));
        CompletableFuture<Void> one = projection.apply(firstUnderSecond).subscribeAsCompletionStage();
        CompletableFuture<Void> other = projection.apply(received(2, SECOND, new FolderMoved(SECOND, FIRST)))
                .subscribeAsCompletionStage();
        store.drive(CompletableFuture.allOf(one, other));
        store.drive(projection.check());
        assertEquals(SECOND, parentOf(store, FIRST), "both moves were applied: a loop");
        assertEquals(FIRST, parentOf(store, SECOND));

        CompletableFuture<Void> redo = projection.apply(firstUnderSecond).subscribeAsCompletionStage();
        int rounds = 0;
        while (!redo.isDone()) {
            assertTrue(store.round(), "the redo waits for the store");
            assertTrue(++rounds < 100, "the redo's walk goes round the loop");
        }
        redo.join();
    }

    private static String parentOf(ModelStore store, String folderId) {
        return store.item(KeyPlan.FOLDER.key(folderId)).get(Attributes.PARENT_ID).s();
    }

    private static ReceivedEvent received(long offset, String key, DomainEvent data) {
        EventType<?> type = data instanceof FolderCreated ? FolderEvent.CREATED : FolderEvent.MOVED;
        return new ReceivedEvent("01M8YX0000000000000000" + key.substring(22) + offset, type.name(), key, OWNER,
                Instant.parse("2026-06-01T10:00:00Z"), data, new LogPosition(Topics.FOLDERS, 0, offset));
    }
}
