package dev.cabinet.projection.ordering;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;

class KeyedChainsTest {

    @Test
    void aKeysNextTurnStartsOnlyWhenItsPreviousTurnFinishedWithItsState() {
        KeyedChains<String, Boolean> chains = new KeyedChains<>();
        KeyedChains.Turn<Boolean> first = chains.next("k");
        KeyedChains.Turn<Boolean> second = chains.next("k");
        KeyedChains.Turn<Boolean> third = chains.next("k");

        assertTrue(first.previous().toCompletableFuture().isDone());
        assertNull(first.previous().toCompletableFuture().join());
        assertFalse(first.waited());
        assertFalse(second.previous().toCompletableFuture().isDone());
        assertTrue(second.waited());

        first.done().complete(true);
        assertTrue(second.previous().toCompletableFuture().join(), "the state the previous turn left");
        assertFalse(third.previous().toCompletableFuture().isDone());
        second.done().complete(false);
        assertEquals(false, third.previous().toCompletableFuture().join());
    }

    @Test
    void otherKeysDoNotWaitAndFinishedKeysAreForgotten() {
        KeyedChains<String, Boolean> chains = new KeyedChains<>();
        KeyedChains.Turn<Boolean> a = chains.next("a");
        KeyedChains.Turn<Boolean> b = chains.next("b");
        assertFalse(b.waited());
        assertTrue(b.previous().toCompletableFuture().isDone());
        assertEquals(2, chains.size());

        a.done().complete(false);
        b.done().complete(false);
        assertEquals(0, chains.size());
        KeyedChains.Turn<Boolean> again = chains.next("a");
        assertFalse(again.waited(), "a key whose work all finished starts at once");
    }

    @Test
    void aFailedTurnFailsTheKeysLaterTurnsButNoOtherKey() {
        KeyedChains<String, Boolean> chains = new KeyedChains<>();
        KeyedChains.Turn<Boolean> first = chains.next("k");
        KeyedChains.Turn<Boolean> second = chains.next("k");
        KeyedChains.Turn<Boolean> other = chains.next("o");
        first.done().completeExceptionally(new IllegalStateException("boom"));
        assertTrue(second.previous().toCompletableFuture().isCompletedExceptionally());
        assertFalse(other.previous().toCompletableFuture().isCompletedExceptionally());
    }

    @Test
    void aBatchTakesTheTurnsOfAllItsKeysTogether() {
        KeyedChains<String, Boolean> chains = new KeyedChains<>();
        List<KeyedChains.Turn<Boolean>> first = chains.next(List.of("a", "b"));
        List<KeyedChains.Turn<Boolean>> second = chains.next(List.of("b", "a", "c"));
        assertEquals(3, second.size());
        assertTrue(second.get(0).waited() && second.get(1).waited(), "b and a wait for the first batch");
        assertFalse(second.get(2).waited());
        first.get(1).done().complete(true);
        assertTrue(second.get(0).previous().toCompletableFuture().join(), "b's turn, in the order given");
        assertFalse(second.get(1).previous().toCompletableFuture().isDone(), "a's turn still waits");
    }

    @Test
    void overlappingBatchesApplyEachKeysEventsInLogOrder() {
        // Three batches taken in log order, their keys finishing in scrambled order: each key's work runs in order.
        KeyedChains<String, Boolean> chains = new KeyedChains<>();
        List<String> applied = Collections.synchronizedList(new ArrayList<>());
        List<CompletableFuture<Void>> gates = new ArrayList<>();
        for (int batch = 0; batch < 3; batch++) {
            for (String key : List.of("x", "y", "z")) {
                KeyedChains.Turn<Boolean> turn = chains.next(key);
                CompletableFuture<Void> gate = new CompletableFuture<>();
                gates.add(gate);
                String event = key + batch;
                turn.previous().thenCompose(state -> gate).thenRun(() -> {
                    applied.add(event);
                    turn.done().complete(false);
                });
            }
        }
        // Open the gates last batch first: nothing may run before its key's earlier events.
        for (int i = gates.size() - 1; i >= 0; i--) {
            gates.get(i).complete(null);
        }
        assertEquals(9, applied.size());
        for (String key : List.of("x", "y", "z")) {
            assertEquals(List.of(key + 0, key + 1, key + 2), applied.stream().filter(e -> e.startsWith(key)).toList());
        }
        assertEquals(0, chains.size());
    }

    /**
     * A batch waits for a key's previous turn through a Uni, and Mutiny cancels the stage a Uni was made from when the
     * Uni is cancelled (the engine's merge cancels a batch's other streams when one fails): that must not end the
     * earlier batch's turn, which is still running and whose outcome the key's next turn needs.
     */
    @Test
    void cancellingAWaitForTheKeysPreviousTurnLeavesThatTurnToItsOwner() {
        KeyedChains<String, Boolean> chains = new KeyedChains<>();
        KeyedChains.Turn<Boolean> first = chains.next("k");
        KeyedChains.Turn<Boolean> second = chains.next("k");

        Cancellable waiting = Uni.createFrom().completionStage(second.previous()).subscribe().with(state -> {
        }, failure -> {
        });
        waiting.cancel();

        assertFalse(first.done().isDone(), "the earlier batch's turn is still its own to end");
        first.done().complete(true);
        assertTrue(first.done().join());
        assertEquals(1, chains.size(), "the key's last turn is still in flight");
    }
}
